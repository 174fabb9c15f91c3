// The SQL of the Idempotency-Key store (docs/design.md section 14). A key's row is a claim
// (`running`, with a lease) while its first request runs, then the answer it got (`done`,
// until IDEMPOTENCY_TTL). Each statement decides on its own (an insert that does nothing
// on conflict, an update that checks what it read), so claims race safely across
// processes without a transaction around them. The statements every keyed write runs (the
// claim, the stored answer) are fixed texts (db/statements.ts): built once, not per request.

const insertClaim = statement('idempotency_claim', {
  sqlite:
    "insert into idempotency_keys (id, lookup, distribution_id, fingerprint, state, created_at, expires_at) values (?1, ?2, ?3, ?4, 'running', ?5, ?6) on conflict (lookup) do nothing returning id",
  postgres:
    "insert into idempotency_keys (id, lookup, distribution_id, fingerprint, state, created_at, expires_at) values ($1, $2, $3, $4, 'running', $5, $6) on conflict (lookup) do nothing returning id",
});
const updateAnswer = statement('idempotency_answer', {
  sqlite:
    "update idempotency_keys set state = 'done', status = ?2, headers = ?3, body = ?4, expires_at = ?5 where id = ?1",
  postgres:
    "update idempotency_keys set state = 'done', status = $2, headers = $3, body = $4, expires_at = $5 where id = $1",
});
const insertParties = statement('idempotency_parties', {
  sqlite:
    'insert into idempotency_key_parties (key_id, distribution_id, party_id) select ?1, ?2, value from json_each(?3) where true on conflict do nothing',
  postgres:
    'insert into idempotency_key_parties (key_id, distribution_id, party_id) select $1, $2, unnest($3::text[]) on conflict do nothing',
});
// PostgreSQL: the answer and its parties in one round trip.
const answerWithParties = prepared(
  'idempotency_answer_parties',
  "with answer as (update idempotency_keys set state = 'done', status = $2, headers = $3, body = $4, expires_at = $5 where id = $1 returning id) " +
    'insert into idempotency_key_parties (key_id, distribution_id, party_id) select answer.id, $6, party from answer, unnest($7::text[]) as party on conflict do nothing',
);
const deleteClaim = statement('idempotency_release', {
  sqlite: "delete from idempotency_keys where id = ?1 and state = 'running'",
  postgres: "delete from idempotency_keys where id = $1 and state = 'running'",
});
import { DatabaseSync } from 'node:sqlite';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import { newRowId } from '../db/ids.ts';
import { dialectOf, prepared, run, runCount, runText, statement } from '../db/statements.ts';
import type { IdempotencyKeyTable } from './idempotency.table.ts';

export interface ClaimRequest {
  readonly lookup: string;
  readonly fingerprint: string;
  readonly distributionId: string | null;
  readonly now: string;
  /** When a claim whose process died stops blocking the key. */
  readonly leaseUntil: string;
}

export type ClaimOutcome =
  | { readonly kind: 'claimed'; readonly id: string }
  | { readonly kind: 'running' }
  | { readonly kind: 'reused' }
  | { readonly kind: 'stored'; readonly row: IdempotencyKeyTable };

// A key's first row written with its answer, in the write's transaction (idempotent-write.ts):
// takes over an expired row, keeping its id; a live one stays, and nothing is returned.
const insertDone = statement('idempotency_done', {
  sqlite:
    "insert into idempotency_keys (id, lookup, distribution_id, fingerprint, state, status, headers, body, created_at, expires_at) values (?1, ?2, ?3, ?4, 'done', ?5, ?6, ?7, ?8, ?9) " +
    "on conflict (lookup) do update set distribution_id = excluded.distribution_id, fingerprint = excluded.fingerprint, state = 'done', status = excluded.status, headers = excluded.headers, body = excluded.body, created_at = excluded.created_at, expires_at = excluded.expires_at " +
    'where idempotency_keys.expires_at <= excluded.created_at returning id',
  postgres:
    "insert into idempotency_keys (id, lookup, distribution_id, fingerprint, state, status, headers, body, created_at, expires_at) values ($1, $2, $3, $4, 'done', $5, $6, $7, $8, $9) " +
    "on conflict (lookup) do update set distribution_id = excluded.distribution_id, fingerprint = excluded.fingerprint, state = 'done', status = excluded.status, headers = excluded.headers, body = excluded.body, created_at = excluded.created_at, expires_at = excluded.expires_at " +
    'where idempotency_keys.expires_at <= excluded.created_at returning id',
});
const deleteKeyParties = statement('idempotency_parties_clear', {
  sqlite: 'delete from idempotency_key_parties where key_id = ?1',
  postgres: 'delete from idempotency_key_parties where key_id = $1',
});

/** Writes a free key's row with its answer; false when a live row holds the key. */
export async function insertAnswer(
  db: Kysely<Database>,
  key: Pick<ClaimRequest, 'lookup' | 'fingerprint' | 'distributionId' | 'now'>,
  answer: StoredAnswer,
): Promise<boolean> {
  const id = newRowId();
  const [row] = await run<{ id: string }>(db, insertDone, [
    id,
    key.lookup,
    key.distributionId,
    key.fingerprint,
    answer.status,
    JSON.stringify(answer.headers),
    answer.body,
    key.now,
    answer.expiresAt,
  ]);
  if (row === undefined) return false;
  // An expired row taken over: its old parties go.
  if (row.id !== id) await run(db, deleteKeyParties, [row.id]);
  await insertPartiesOf(db, row.id, answer);
  return true;
}

const selectKey = statement('idempotency_key', {
  sqlite: 'select * from idempotency_keys where lookup = ?1',
  postgres: 'select * from idempotency_keys where lookup = $1',
});

/** What a live row of the key says (another request runs, or its answer is kept); undefined when the key is free. */
export type LiveKeyReader = (
  request: Pick<ClaimRequest, 'lookup' | 'fingerprint' | 'now'>,
) => Exclude<ClaimOutcome, { kind: 'claimed' }> | undefined;

/**
 * SQLite: a read-only connection of its own to the database file for a key's first read.
 * The one writer's connection has a group commit open most of the time under load, and a
 * read through it waits for that commit; this one reads what is committed at once (WAL), so
 * a keyed push waits for one commit, its own, not two. Uncommitted rows are not seen: a
 * request that finds its key free and loses the race to a concurrent one is refused when its
 * write meets that one's row (idempotent-write.ts).
 */
export function openLiveKeyReader(filename: string): { read: LiveKeyReader; close(): void } {
  // Opened at the first keyed request: the file and its tables exist by then.
  let opened: { connection: DatabaseSync; select: ReturnType<DatabaseSync['prepare']> } | undefined;
  return {
    read: (request) => {
      if (opened === undefined) {
        const connection = new DatabaseSync(filename, { readOnly: true, timeout: 5_000 });
        opened = { connection, select: connection.prepare(selectKey.sql.sqlite) };
      }
      const row = opened.select.get(request.lookup) as IdempotencyKeyTable | undefined;
      return row === undefined || row.expires_at <= request.now ? undefined : liveOutcome(row, request.fingerprint);
    },
    close: () => opened?.connection.close(),
  };
}

function liveOutcome(row: IdempotencyKeyTable, fingerprint: string): Exclude<ClaimOutcome, { kind: 'claimed' }> {
  if (row.state === 'running') return { kind: 'running' };
  return row.fingerprint === fingerprint ? { kind: 'stored', row } : { kind: 'reused' };
}

/** Takes the key for this request, or says why not: another one runs, or holds an answer. */
export async function claimKey(db: Kysely<Database>, request: ClaimRequest): Promise<ClaimOutcome> {
  // A row deleted or taken between two of these statements sends us round again; each
  // round ends unless another request changes the row in exactly that gap.
  for (let round = 0; round < 5; round++) {
    const id = newRowId();
    const [inserted] = await run<{ id: string }>(db, insertClaim, [
      id,
      request.lookup,
      request.distributionId,
      request.fingerprint,
      request.now,
      request.leaseUntil,
    ]);
    if (inserted) return { kind: 'claimed', id };
    const [row] = await run<IdempotencyKeyTable>(db, selectKey, [request.lookup]);
    if (!row) continue;
    if (row.expires_at > request.now) return liveOutcome(row, request.fingerprint);
    // Expired (an answer past its TTL, or the claim of a process that died): taken over,
    // unless someone else took it first.
    const taken = await db
      .updateTable('idempotency_keys')
      .set({
        fingerprint: request.fingerprint,
        distribution_id: request.distributionId,
        state: 'running',
        status: null,
        headers: null,
        body: null,
        created_at: request.now,
        expires_at: request.leaseUntil,
      })
      .where('id', '=', row.id)
      .where('expires_at', '=', row.expires_at)
      .returning('id')
      .executeTakeFirst();
    if (taken) {
      await db.deleteFrom('idempotency_key_parties').where('key_id', '=', row.id).execute();
      return { kind: 'claimed', id: row.id };
    }
  }
  return { kind: 'running' };
}

export interface StoredAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly expiresAt: string;
  /** The parties the answer shows (all of the path's distribution), so that erasing one removes it. */
  readonly parties: ReadonlyArray<{ readonly distributionId: string; readonly partyId: string }>;
}

/** Keeps the answer of a claimed key for its retries. */
export async function storeAnswer(db: Kysely<Database>, id: string, answer: StoredAnswer): Promise<void> {
  const distributionId = answer.parties[0]?.distributionId;
  if (distributionId !== undefined && dialectOf(db) === 'postgres') {
    const parties = [...new Set(answer.parties.map((party) => party.partyId))];
    const headers = JSON.stringify(answer.headers);
    await runText(db, answerWithParties, [
      id,
      answer.status,
      headers,
      answer.body,
      answer.expiresAt,
      distributionId,
      parties,
    ]);
    return;
  }
  await runCount(db, updateAnswer.sql[dialectOf(db)], [
    id,
    answer.status,
    JSON.stringify(answer.headers),
    answer.body,
    answer.expiresAt,
  ]);
  await insertPartiesOf(db, id, answer);
}

async function insertPartiesOf(db: Kysely<Database>, id: string, answer: StoredAnswer): Promise<void> {
  // One distribution per answer: the path's.
  const distributionId = answer.parties[0]?.distributionId;
  if (distributionId === undefined) return;
  await run(db, insertParties, [id, distributionId, [...new Set(answer.parties.map((party) => party.partyId))]]);
}

/** A refused request keeps no record: its key is free for the corrected retry. */
export async function releaseClaim(db: Kysely<Database>, id: string): Promise<void> {
  await run(db, deleteClaim, [id]);
}

/** Removes up to `limit` expired keys (oldest first); returns how many. */
export async function purgeExpiredKeys(db: Kysely<Database>, now: string, limit: number): Promise<number> {
  const expired = await db
    .selectFrom('idempotency_keys')
    .select('id')
    .where('expires_at', '<=', now)
    .orderBy('expires_at')
    .limit(limit)
    .execute();
  return deleteKeys(
    db,
    expired.map((row) => row.id),
  );
}

/**
 * Erasure of a person (docs/design.md section 15): the stored answers that show the party
 * go with it. Returns the number of answers removed. Runs in the erasure's transaction.
 */
export async function deleteIdempotentAnswersOfParty(
  trx: Kysely<Database>,
  distributionId: string,
  partyId: string,
): Promise<number> {
  const keys = await trx
    .selectFrom('idempotency_key_parties')
    .select('key_id')
    .where('party_id', '=', partyId)
    .where('distribution_id', '=', distributionId)
    .execute();
  return deleteKeys(
    trx,
    keys.map((row) => row.key_id),
  );
}

async function deleteKeys(db: Kysely<Database>, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0;
  await db.deleteFrom('idempotency_key_parties').where('key_id', 'in', ids).execute();
  const deleted = await db.deleteFrom('idempotency_keys').where('id', 'in', ids).executeTakeFirst();
  return Number(deleted.numDeletedRows);
}
