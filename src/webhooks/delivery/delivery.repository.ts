// All SQL of the delivery queue: claiming due deliveries, recording attempts, the URLs a
// receiver stopped with 410 Gone, and what the outbox lag metric reads.
import { newRowId } from '../../db/ids.ts';
import { dialectOf, run, runText, statement } from '../../db/statements.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import { forgetRevokedClaim } from './claim-revocation.repository.ts';
import { type AttemptOutcome, type DeliveryStatus, receiverOrigin, type WebhookEventType } from '../webhook.table.ts';

type Db = Kysely<Database>;

export interface ClaimedDelivery {
  readonly id: string;
  readonly event_id: string;
  readonly distribution_id: string;
  readonly url: string;
  /** The receiver (receiverHost): attempts are capped per host. */
  readonly host: string;
  readonly attempts: number;
  readonly round_start: number;
  readonly claim_id: string;
  readonly payload: string;
  readonly type: WebhookEventType;
  /** Read with the claim: the distribution's secrets that sign now, the current one first; none if it has no key yet. */
  readonly secrets: readonly string[];
  /** Read with the claim: when a receiver stopped the URL with 410 Gone (a push that lists it again resumes it). */
  readonly stopped_at: string | null;
}

/** Whether anything is due: a cheap read, so an idle worker never opens a write transaction. */
export async function anyDue(db: Db, now: string): Promise<boolean> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Takes up to `limit` due deliveries for this worker, in one statement: their
 * next_attempt_at moves to the end of the lease, so no other worker takes them meanwhile,
 * and a worker that dies leaves them due again once the lease ends. On PostgreSQL
 * `FOR UPDATE SKIP LOCKED` lets several processes claim side by side without waiting on,
 * or taking, each other's rows; SQLite has one writer at a time, which is enough.
 *
 * Oldest first, but at most `perHost` per receiver host, and none for `busyHosts` (those
 * this worker already has enough of): a backlog for one dead or slow host must not fill
 * the claim and hide another host's due delivery behind it (docs/design.md section 5).
 */
export interface Claim {
  readonly now: string;
  readonly leaseUntil: string;
  readonly claimId: string;
  readonly limit: number;
  readonly perHost: number;
  readonly busyHosts: readonly string[];
}

export async function claimDue(db: Db, claim: Claim): Promise<ClaimedDelivery[]> {
  const rows = await run<ClaimedRow>(db, claimStatement, [
    claim.now,
    claim.leaseUntil,
    claim.limit,
    claim.perHost,
    [...claim.busyHosts],
    claim.claimId,
  ]);
  return rows.map((row) => ({
    id: row.id,
    event_id: row.event_id,
    distribution_id: row.distribution_id,
    url: row.url,
    host: row.host ?? '',
    attempts: Number(row.attempts),
    round_start: Number(row.round_start),
    claim_id: claim.claimId,
    payload: row.payload,
    type: row.type,
    // SQLite's JSON is text; PostgreSQL's json arrives parsed.
    secrets: typeof row.secrets === 'string' ? (JSON.parse(row.secrets) as string[]) : row.secrets,
    stopped_at: row.stopped_at,
  }));
}

interface ClaimedRow {
  readonly id: string;
  readonly event_id: string;
  readonly distribution_id: string;
  readonly url: string;
  readonly host: string | null;
  readonly attempts: number | string;
  readonly round_start: number | string;
  readonly payload: string;
  readonly type: WebhookEventType;
  readonly secrets: string | string[];
  readonly stopped_at: string | null;
}

/**
 * The claim in one statement, which reads what the attempts need with it: the event's body,
 * the keys that sign at the claim's `now` (the current one first, then the most recently
 * retired; as signingSecrets reads them) and the URL's 410. On
 * PostgreSQL it is one round trip with no transaction around it (delivery.writes.ts).
 *
 * The due rows come host by host (`hosts`, a recursive step through the index
 * `webhook_deliveries_due_host` from each host to the next, then each host's first `perHost`
 * due rows from the same index), and the claim takes the oldest `limit` of those: the rows
 * a ranking of every due row by host kept (at most `perHost` a host, oldest first), read at a
 * cost that follows the hosts and the claim rather than the backlog (migration
 * 2026-11-30T11-00). Every pending row has a host ('' for a URL without one).
 *
 * PostgreSQL locks the ids in a step of their own (a lock in each host's read would take
 * that host's rows before the claim keeps the oldest of all hosts'); that step and the update
 * repeat the due conditions on the row itself: the queue was read as it was when the
 * statement began, so a row another worker claimed since (and committed) is still in it;
 * READ COMMITTED re-checks a locked or updated row's own conditions against its newest
 * version, which is no longer due, and so leaves it out (test/webhook-claims.test.ts). Both
 * steps find their rows by id (`= any(array(...))`, the primary key): given the ids as a
 * subquery, the planner scanned the table and hashed them. SQLite has one writer at a time.
 */
const HOSTS_SQLITE = `with recursive hosts(host) as (
      select (select host from webhook_deliveries where status = 'pending' order by host limit 1)
      union all
      select (select d.host from webhook_deliveries as d where d.status = 'pending' and d.host > hosts.host order by d.host limit 1)
      from hosts where hosts.host is not null
    )`;
const claimStatement = statement('webhook_claim_due', {
  sqlite: `update webhook_deliveries set next_attempt_at = ?2, claim_id = ?6
    where id in (
      ${HOSTS_SQLITE}
      select d.id from hosts as h join webhook_deliveries as d on d.id in (
          select e.id from webhook_deliveries as e
          where e.status = 'pending' and e.host = h.host and e.next_attempt_at <= ?1
          order by e.next_attempt_at, e.id limit ?4)
      where h.host is not null and h.host not in (select value from json_each(?5))
      order by d.next_attempt_at, d.id
      limit ?3
    ) and status = 'pending' and next_attempt_at <= ?1
    returning id, event_id, distribution_id, url, host, attempts, round_start,
      (select e.payload from webhook_events as e where e.id = webhook_deliveries.event_id) as payload,
      (select e.type from webhook_events as e where e.id = webhook_deliveries.event_id) as type,
      (select json_group_array(k.secret order by k.expires_at is not null, k.created_at desc)
        from webhook_signing_keys as k
        where k.distribution_id = webhook_deliveries.distribution_id and (k.expires_at is null or k.expires_at > ?1)
      ) as secrets,
      (select s.stopped_at from webhook_stopped_urls as s
        where s.distribution_id = webhook_deliveries.distribution_id and s.url = webhook_deliveries.url) as stopped_at`,
  postgres: `with recursive hosts(host) as (
      (select host from webhook_deliveries where status = 'pending' order by host limit 1)
      union all
      select (select d.host from webhook_deliveries as d where d.status = 'pending' and d.host > h.host order by d.host limit 1)
      from hosts as h where h.host is not null
    ), due as (
      select d.id from hosts as h
        cross join lateral (
          select e.id, e.next_attempt_at from webhook_deliveries as e
          where e.status = 'pending' and e.host = h.host and e.next_attempt_at <= $1
          order by e.next_attempt_at, e.id
          limit $4
        ) as d
      where h.host is not null and (cardinality($5::text[]) = 0 or h.host <> all($5::text[]))
      order by d.next_attempt_at, d.id
      limit $3
    ), locked as (
      select id from webhook_deliveries
      where id = any(array(select id from due)) and status = 'pending' and next_attempt_at <= $1
      for update skip locked
    ), claimed as (
      update webhook_deliveries set next_attempt_at = $2, claim_id = $6
      where id = any(array(select id from locked)) and status = 'pending' and next_attempt_at <= $1
      returning id, event_id, distribution_id, url, host, attempts, round_start
    )
    select c.id, c.event_id, c.distribution_id, c.url, c.host, c.attempts, c.round_start, e.payload, e.type,
      (select coalesce(json_agg(k.secret order by k.expires_at is not null, k.created_at desc), '[]'::json)
        from webhook_signing_keys as k
        where k.distribution_id = c.distribution_id and (k.expires_at is null or k.expires_at > $1)) as secrets,
      (select s.stopped_at from webhook_stopped_urls as s
        where s.distribution_id = c.distribution_id and s.url = c.url) as stopped_at
    from claimed as c join webhook_events as e on e.id = c.event_id`,
});

export interface AttemptRecord {
  readonly delivery: ClaimedDelivery;
  readonly startedAt: string;
  readonly durationMs: number;
  readonly outcome: AttemptOutcome;
  readonly statusCode: number | null;
  readonly error: string | null;
  readonly status: DeliveryStatus;
  readonly nextAttemptAt: string | null;
  /** 410 Gone: stop every later delivery to this URL of the distribution. */
  readonly stopUrl: boolean;
}

/**
 * Several attempts' results in one go: each delivery row in one statement (fixed text, planned
 * once), every attempt row in one more; on PostgreSQL both in one statement, so that recording
 * a batch on the pool is one round trip (delivery.writes.ts). A result is written only if its
 * worker still holds the claim (a worker that stalled past its lease may have lost the
 * delivery to another, which records it then; an erasure may have taken it back with the
 * person). Returns the ids of the deliveries recorded.
 */
export async function recordAttempts(db: Db, records: readonly AttemptRecord[]): Promise<Set<string>> {
  if (records.length === 0) return new Set();
  const now = new Date().toISOString();
  const results = records.map(({ delivery, ...record }) => ({
    id: delivery.id,
    claim_id: delivery.claim_id,
    status: record.status,
    next_attempt_at: record.nextAttemptAt,
    attempts: delivery.attempts + 1,
    status_code: record.statusCode,
    error: record.error,
    // A `lead.erased` delivery keeps its callback URL only until it is done (docs/design.md
    // section 14): the path or query may name the erased person. Its receiver stays known.
    url: delivery.type === 'lead.erased' && record.status !== 'pending' ? receiverOrigin(delivery.url) : null,
    attempt_id: newRowId(),
    started_at: record.startedAt,
    duration_ms: record.durationMs,
    outcome: record.outcome,
  }));
  const updated = await run<{ id: string }>(db, recordResults, [JSON.stringify(results), now]);
  const recorded = new Set(updated.map((row) => row.id));
  const kept = results.filter((result) => recorded.has(result.id));
  // PostgreSQL wrote the attempts' rows in the same statement.
  if (kept.length > 0 && dialectOf(db) === 'sqlite') await runText(db, INSERT_ATTEMPTS_SQLITE, [JSON.stringify(kept)]);
  for (const record of records) {
    // Gone with an erased person (or taken by another worker after the lease): if an
    // erasure is waiting for this claim, the attempt is over now.
    if (!recorded.has(record.delivery.id)) await forgetRevokedClaim(db, record.delivery);
    // Not for `lead.erased`: the URL would outlive the person it was theirs (a later event for
    // another party that lists it meets the 410 again, and it is remembered then).
    else if (record.stopUrl && record.delivery.type !== 'lead.erased') await stopUrl(db, record.delivery, now);
  }
  return recorded;
}

const INSERT_ATTEMPTS_SQLITE = `insert into webhook_attempts
    (id, delivery_id, attempt_nr, started_at, duration_ms, outcome, status_code, error)
  select value ->> '$.attempt_id', value ->> '$.id', value ->> '$.attempts', value ->> '$.started_at',
    value ->> '$.duration_ms', value ->> '$.outcome', value ->> '$.status_code', value ->> '$.error'
  from json_each(?1)`;

const recordResults = statement('webhook_record_attempts', {
  sqlite: `update webhook_deliveries set status = v.status, next_attempt_at = v.next_attempt_at, claim_id = null,
      attempts = v.attempts, last_status_code = v.status_code, last_error = v.error, updated_at = ?2,
      url = coalesce(v.url, webhook_deliveries.url)
    from (select value ->> '$.id' as id, value ->> '$.claim_id' as claim_id, value ->> '$.status' as status,
        value ->> '$.next_attempt_at' as next_attempt_at, value ->> '$.attempts' as attempts,
        value ->> '$.status_code' as status_code, value ->> '$.error' as error, value ->> '$.url' as url
      from json_each(?1)) as v
    where webhook_deliveries.id = v.id and webhook_deliveries.claim_id = v.claim_id
    returning webhook_deliveries.id`,
  // The attempts' rows in the same statement, for the deliveries the update found still claimed.
  postgres: `with v as (
      select * from jsonb_to_recordset($1::jsonb) as v(id text, claim_id text, status text, next_attempt_at text,
        attempts integer, status_code integer, error text, url text, attempt_id text, started_at text,
        duration_ms integer, outcome text)
    ), updated as (
      update webhook_deliveries as d set status = v.status, next_attempt_at = v.next_attempt_at,
        claim_id = null, attempts = v.attempts, last_status_code = v.status_code, last_error = v.error,
        updated_at = $2, url = coalesce(v.url, d.url)
      from v
      where d.id = v.id and d.claim_id = v.claim_id
      returning d.id
    ), attempts as (
      insert into webhook_attempts (id, delivery_id, attempt_nr, started_at, duration_ms, outcome, status_code, error)
      select v.attempt_id, v.id, v.attempts, v.started_at, v.duration_ms, v.outcome, v.status_code, v.error
      from v join updated on updated.id = v.id
    )
    select id from updated`,
});

/** 410 Gone: every later delivery to this URL of the distribution is stopped. */
async function stopUrl(db: Db, delivery: ClaimedDelivery, now: string): Promise<void> {
  await db
    .insertInto('webhook_stopped_urls')
    .values({ distribution_id: delivery.distribution_id, url: delivery.url, stopped_at: now, delivery_id: delivery.id })
    .onConflict((conflict) =>
      conflict.columns(['distribution_id', 'url']).doUpdateSet({ stopped_at: now, delivery_id: delivery.id }),
    )
    .execute();
}

/** Gives claimed deliveries back, due now and with no attempt counted (the worker is stopping). */
export async function releaseClaims(
  db: Db,
  deliveries: ReadonlyArray<Pick<ClaimedDelivery, 'id' | 'claim_id'>>,
): Promise<void> {
  const now = new Date().toISOString();
  for (const delivery of deliveries) {
    const released = await db
      .updateTable('webhook_deliveries')
      .set({ next_attempt_at: now, claim_id: null })
      .where('id', '=', delivery.id)
      .where('claim_id', '=', delivery.claim_id)
      .executeTakeFirst();
    if (Number(released.numUpdatedRows) !== 1) await forgetRevokedClaim(db, delivery);
  }
}

/** How long the oldest due delivery has been waiting, in seconds; 0 when none is due. */
export async function oldestDueAgeSeconds(db: Db, now: Date): Promise<number> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.min('next_attempt_at').as('oldest'))
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now.toISOString())
    .executeTakeFirst();
  const oldest = row?.oldest as string | null | undefined;
  return oldest ? Math.max(0, (now.getTime() - Date.parse(oldest)) / 1000) : 0;
}
