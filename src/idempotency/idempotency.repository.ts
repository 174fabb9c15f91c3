// The SQL of the Idempotency-Key store (docs/design.md section 14). A key's row, found by its
// lookup, is the answer its first request got (`done`, until IDEMPOTENCY_TTL); an answer that
// shows one person names it in its own `party_id`, which the erasure deletes by. Two ways in:
// - kept by the write (a push, a PATCH): the row is written whole, answer and all, by one
//   statement of the write's own transaction (insertAnswer), so an acknowledged write is
//   replayed and never runs twice, and an erasure either finds the row or the write meets it;
// - claimed first (a batch, whose items commit one by one): a `running` row with a lease is
//   committed before the work, and the answer stored after it (storeAnswer), only while every
//   person it shows still exists.
// Each statement decides on its own (an insert that does nothing on conflict, an update that
// checks what it read), so claims race safely across processes. The statements every keyed
// write runs are fixed texts (db/statements.ts): built once, not per request.
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import { dialectOf, prepared, run, runCount, runText, statement } from '../db/statements.ts';
import type { IdempotencyAnswerTable } from './idempotency.table.ts';

export interface ClaimRequest {
  readonly lookup: string;
  readonly fingerprint: string;
  readonly distributionId: string | null;
  readonly now: string;
  /** When a claim whose process died stops blocking the key. */
  readonly leaseUntil: string;
}

/** A claim is its row as this request wrote it: the lookup and when. */
export interface HeldClaim {
  readonly lookup: string;
  readonly createdAt: string;
}

export type ClaimOutcome =
  | { readonly kind: 'claimed'; readonly claim: HeldClaim }
  | { readonly kind: 'running' }
  | { readonly kind: 'reused' }
  | { readonly kind: 'stored'; readonly row: IdempotencyAnswerTable };

export type LiveOutcome = Exclude<ClaimOutcome, { kind: 'claimed' }>;

export interface StoredAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly expiresAt: string;
  /** The path's distribution, whose people the answer shows. */
  readonly distributionId: string | null;
  /** The people the answer shows, so that erasing one removes it. */
  readonly partyIds: readonly string[];
}

const selectKey = statement('idempotency_key', {
  sqlite: 'select * from idempotency_answers where lookup = ?1',
  postgres: 'select * from idempotency_answers where lookup = $1',
});

/** What a row of the key says to a request with `fingerprint`, or undefined when the key is free. */
export function liveOutcome(
  row: IdempotencyAnswerTable | undefined,
  request: Pick<ClaimRequest, 'fingerprint' | 'now'>,
): LiveOutcome | undefined {
  if (row === undefined || row.expires_at <= request.now) return undefined;
  if (row.state === 'running') return { kind: 'running' };
  return row.fingerprint === request.fingerprint ? { kind: 'stored', row } : { kind: 'reused' };
}

/**
 * The key, as the first statement of the write that keeps its answer (idempotent-write.ts):
 * its outcome undefined when it is free, and then this write's; `rowless` when it has no row
 * at all, not even an expired one. SQLite reads its row on the writer's
 * connection (the one writer holds it). PostgreSQL takes the key's lock and reads its row in
 * one statement (a round trip fewer than a read before the write and a lock in it): another
 * request holding the lock is `running`.
 */
export async function readKeyInWrite(
  db: Kysely<Database>,
  request: Pick<ClaimRequest, 'lookup' | 'fingerprint' | 'now'>,
): Promise<{ readonly live: LiveOutcome | undefined; readonly rowless: boolean }> {
  if (dialectOf(db) === 'sqlite') {
    const [row] = await run<IdempotencyAnswerTable>(db, selectKey, [request.lookup]);
    return { live: liveOutcome(row, request), rowless: row === undefined };
  }
  const [row] = await runText<IdempotencyAnswerTable & { free: boolean; lookup: string | null }>(db, lockAndReadKey, [
    request.lookup,
  ]);
  const stored = row?.lookup === null ? undefined : row;
  return { live: lockedKeyOutcome(row?.free === true, stored, request), rowless: stored === undefined };
}

/**
 * What the key's lock and row say (PostgreSQL): another request holding the lock is
 * `running`; with the lock, the row's outcome (undefined: free, and this write's).
 */
export function lockedKeyOutcome(
  free: boolean,
  row: IdempotencyAnswerTable | undefined,
  request: Pick<ClaimRequest, 'fingerprint' | 'now'>,
): LiveOutcome | undefined {
  if (!free) return { kind: 'running' };
  return liveOutcome(row, request);
}

/**
 * PostgreSQL: takes the key's lock for the transaction, without waiting (false when another
 * transaction holds it), as SQL over the parameter `param` holding the key's lookup. Read
 * alone (lockAndReadKey) or as the first part of a push's lookup (push-candidates.repository.ts).
 */
export const tryLockKeySql = (param: string): string =>
  `pg_try_advisory_xact_lock(${KEY_LOCK_CLASS}, hashtext(current_schema() || ${param}))`;

/** The SQLite text of the read, for a connection of its own (live-key-reader.ts). */
export const SELECT_KEY_SQLITE = selectKey.sql.sqlite;

// ---- Kept by the write -------------------------------------------------------------------

// PostgreSQL: a transaction-scoped advisory lock per key (class 'keys', the key's hash within
// the schema): another request with the key, in any process, is refused at once while this
// one's transaction runs, instead of waiting on the row it will write. A hash collision can
// only refuse a request with 409 (retry), never let two run: the row's primary key decides.
const KEY_LOCK_CLASS = 0x6b657973; // 'keys'
// The row is read in the statement's snapshot, taken before the lock: a request with the key
// that commits in between is not seen, and this write's insert of the key then meets its row
// (insertAnswer: refused, rolled back), as a read before the write would have left it.
const lockAndReadKey = prepared(
  'idempotency_key_lock',
  `select k.free, a.* from (select ${tryLockKeySql('$1')} as free) k
    left join idempotency_answers a on k.free and a.lookup = $1`,
);

// The key's row written with its answer: takes over an expired row; a live one stays, and
// nothing is returned.
const ANSWER_COLUMNS =
  '(lookup, distribution_id, party_id, fingerprint, state, status, headers, body, created_at, expires_at)';
const TAKE_OVER_EXPIRED =
  "on conflict (lookup) do update set distribution_id = excluded.distribution_id, party_id = excluded.party_id, fingerprint = excluded.fingerprint, state = 'done', status = excluded.status, headers = excluded.headers, body = excluded.body, created_at = excluded.created_at, expires_at = excluded.expires_at " +
  'where idempotency_answers.expires_at <= excluded.created_at returning lookup';
// SQLite, a key the write's own transaction found no row of: nothing can have written one
// since (the one writer holds the database), so the plain insert, which costs less than half
// the upsert. PostgreSQL always upserts: a request that committed between the lookup's
// snapshot and the key's lock is met there.
const INSERT_FRESH_SQLITE = `insert into idempotency_answers ${ANSWER_COLUMNS} values (?1, ?2, ?3, ?4, 'done', ?5, ?6, ?7, ?8, ?9)`;
/**
 * PostgreSQL: the key's row written with its answer (`insertDone`), its parameters numbered
 * from `first`, so a write can run it as a WITH query of its own statement (the push's rows:
 * a round trip fewer). It returns the key's lookup when the row was written, nothing when a
 * live row holds the key.
 */
export const postgresAnswerInsert = (first: number): string => {
  const p = (i: number) => `$${first + i}`;
  return `insert into idempotency_answers ${ANSWER_COLUMNS} values (${p(0)}, ${p(1)}, ${p(2)}, ${p(3)}, 'done', ${p(4)}, ${p(5)}, ${p(6)}, ${p(7)}, ${p(8)}) ${TAKE_OVER_EXPIRED}`;
};
const insertDone = statement('idempotency_done', {
  sqlite: `${INSERT_FRESH_SQLITE} ${TAKE_OVER_EXPIRED}`,
  postgres: postgresAnswerInsert(1),
});

/**
 * Writes a free key's row with its answer, in the write's transaction; false when a live row
 * holds the key. A route kept by its write shows at most one person (a lead, a party).
 * `rowless`: the write's transaction read the key and found no row at all (not even an expired one).
 */
export async function insertAnswer(
  db: Kysely<Database>,
  /** The key's row, answerValues. */
  values: readonly unknown[],
  rowless = false,
): Promise<boolean> {
  if (rowless && dialectOf(db) === 'sqlite') {
    await runText(db, INSERT_FRESH_SQLITE, values);
    return true;
  }
  return (await run<{ lookup: string }>(db, insertDone, values)).length > 0;
}

/**
 * The key's row with its answer as the values of `postgresAnswerInsert` and `insertDone`, in
 * their order. A route kept by its write shows at most one person (a lead, a party).
 */
export function answerValues(
  key: Pick<ClaimRequest, 'lookup' | 'fingerprint' | 'now'>,
  answer: StoredAnswer,
): unknown[] {
  if (answer.partyIds.length > 1) throw new Error('an answer kept by its write shows one person at most');
  return [
    key.lookup,
    answer.distributionId,
    answer.partyIds[0] ?? null,
    key.fingerprint,
    answer.status,
    JSON.stringify(answer.headers),
    answer.body,
    key.now,
    answer.expiresAt,
  ];
}

// ---- Claimed first -----------------------------------------------------------------------

const insertClaim = statement('idempotency_claim', {
  sqlite:
    "insert into idempotency_answers (lookup, distribution_id, fingerprint, state, created_at, expires_at) values (?1, ?2, ?3, 'running', ?4, ?5) on conflict (lookup) do nothing returning lookup",
  postgres:
    "insert into idempotency_answers (lookup, distribution_id, fingerprint, state, created_at, expires_at) values ($1, $2, $3, 'running', $4, $5) on conflict (lookup) do nothing returning lookup",
});

/** Takes the key for this request, or says why not: another one runs, or holds an answer. */
export async function claimKey(db: Kysely<Database>, request: ClaimRequest): Promise<ClaimOutcome> {
  const claim = { lookup: request.lookup, createdAt: request.now };
  // A row deleted or taken between two of these statements sends us round again; each
  // round ends unless another request changes the row in exactly that gap.
  for (let round = 0; round < 5; round++) {
    const [inserted] = await run<{ lookup: string }>(db, insertClaim, [
      request.lookup,
      request.distributionId,
      request.fingerprint,
      request.now,
      request.leaseUntil,
    ]);
    if (inserted) return { kind: 'claimed', claim };
    const [row] = await run<IdempotencyAnswerTable>(db, selectKey, [request.lookup]);
    if (!row) continue;
    const live = liveOutcome(row, request);
    if (live) return live;
    // Expired (an answer past its TTL, or the claim of a process that died): taken over,
    // unless someone else took it first.
    const taken = await db
      .updateTable('idempotency_answers')
      .set({
        fingerprint: request.fingerprint,
        distribution_id: request.distributionId,
        party_id: null,
        state: 'running',
        status: null,
        headers: null,
        body: null,
        created_at: request.now,
        expires_at: request.leaseUntil,
      })
      .where('lookup', '=', row.lookup)
      .where('expires_at', '=', row.expires_at)
      .returning('lookup')
      .executeTakeFirst();
    if (taken) {
      await db.deleteFrom('idempotency_answer_parties').where('lookup', '=', row.lookup).execute();
      return { kind: 'claimed', claim };
    }
  }
  return { kind: 'running' };
}

// The answer goes in only while every person it shows exists: an erasure that committed since
// the write leaves the key free instead (its retry is answered as it would be now). On
// PostgreSQL the people's rows are share-locked by the statement, so an erasure running now
// either finishes first (the rows are gone) or waits for this answer and then deletes it.
const updateAnswer = statement('idempotency_answer', {
  sqlite:
    "update idempotency_answers set state = 'done', status = ?3, headers = ?4, body = ?5, expires_at = ?6, party_id = ?7 " +
    "where lookup = ?1 and created_at = ?2 and state = 'running' " +
    'and (select count(*) from parties where id in (select value from json_each(?8))) = json_array_length(?8)',
  postgres:
    'with alive as (select id from parties where id = any($8::text[]) for share), ' +
    "answer as (update idempotency_answers set state = 'done', status = $3, headers = $4, body = $5, expires_at = $6, party_id = $7 " +
    "where lookup = $1 and created_at = $2 and state = 'running' and (select count(*) from alive) = cardinality($8::text[]) returning lookup), " +
    'links as (insert into idempotency_answer_parties (lookup, distribution_id, party_id) select answer.lookup, $9, party from answer, unnest($10::text[]) as party on conflict do nothing returning 1) ' +
    'select (select count(*) from answer) as stored, (select count(*) from links) as links',
});
const insertLinks = statement('idempotency_answer_links', {
  sqlite:
    'insert into idempotency_answer_parties (lookup, distribution_id, party_id) select ?1, ?2, value from json_each(?3) where true on conflict do nothing',
  postgres:
    'insert into idempotency_answer_parties (lookup, distribution_id, party_id) select $1, $2, unnest($3::text[]) on conflict do nothing',
});

/**
 * Keeps the answer of a claimed key for its retries; false when a person it shows was erased
 * meanwhile (nothing is kept then: release the claim).
 */
export async function storeAnswer(db: Kysely<Database>, claim: HeldClaim, answer: StoredAnswer): Promise<boolean> {
  const parties = [...new Set(answer.partyIds)];
  const single = parties.length === 1 ? parties[0]! : null;
  // Several people: one link row each (the answer's own column names one).
  const links = parties.length > 1 && answer.distributionId !== null ? parties : [];
  const values = [
    claim.lookup,
    claim.createdAt,
    answer.status,
    JSON.stringify(answer.headers),
    answer.body,
    answer.expiresAt,
    single,
    parties,
  ];
  if (dialectOf(db) === 'postgres') {
    const [row] = await runText<{ stored: string | number }>(db, updateAnswer.sql.postgres, [
      ...values,
      answer.distributionId,
      links,
    ]);
    return Number(row?.stored) === 1;
  }
  const stored = await runCount(db, updateAnswer.sql.sqlite, [...values.slice(0, 7), JSON.stringify(parties)]);
  if (stored !== 1) return false;
  if (links.length > 0) await run(db, insertLinks, [claim.lookup, answer.distributionId, links]);
  return true;
}

const deleteClaim = statement('idempotency_release', {
  sqlite: "delete from idempotency_answers where lookup = ?1 and created_at = ?2 and state = 'running'",
  postgres: "delete from idempotency_answers where lookup = $1 and created_at = $2 and state = 'running'",
});

/** A refused request keeps no record: its key is free for the corrected retry. */
export async function releaseClaim(db: Kysely<Database>, claim: HeldClaim): Promise<void> {
  await run(db, deleteClaim, [claim.lookup, claim.createdAt]);
}

// ---- Expiry and erasure ------------------------------------------------------------------

/** Removes up to `limit` expired keys (oldest first); returns how many. */
export async function purgeExpiredKeys(db: Kysely<Database>, now: string, limit: number): Promise<number> {
  const expired = await db
    .selectFrom('idempotency_answers')
    .select('lookup')
    .where('expires_at', '<=', now)
    .orderBy('expires_at')
    .limit(limit)
    .execute();
  return deleteKeys(
    db,
    expired.map((row) => row.lookup),
  );
}

/**
 * Erasure of a person (docs/design.md section 14): every stored answer that shows the party
 * goes, a batch's whole (it shows its other items' people too). Runs in the erasure's
 * transaction, after the party's row is locked: a write of the person that committed before
 * is found here, one that commits after meets the tombstone. Returns the answers removed.
 */
export async function deleteIdempotentAnswersOfParty(
  trx: Kysely<Database>,
  distributionId: string,
  partyId: string,
): Promise<number> {
  const linked = await trx
    .selectFrom('idempotency_answer_parties')
    .select('lookup')
    .where('party_id', '=', partyId)
    .where('distribution_id', '=', distributionId)
    .execute();
  const own = await trx
    .deleteFrom('idempotency_answers')
    .where('party_id', '=', partyId)
    .where('distribution_id', '=', distributionId)
    .executeTakeFirst();
  return (
    Number(own.numDeletedRows) +
    (await deleteKeys(
      trx,
      linked.map((row) => row.lookup),
    ))
  );
}

async function deleteKeys(db: Kysely<Database>, lookups: readonly string[]): Promise<number> {
  if (lookups.length === 0) return 0;
  await db.deleteFrom('idempotency_answer_parties').where('lookup', 'in', lookups).execute();
  const deleted = await db.deleteFrom('idempotency_answers').where('lookup', 'in', lookups).executeTakeFirst();
  return Number(deleted.numDeletedRows);
}
