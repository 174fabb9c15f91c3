// A change listing that never skips (docs/design.md section 9). A partner keeps the newest
// `updated_at` it saw (or the `next` link) and asks again later; on PostgreSQL a
// transaction that stamped its lead earlier can commit after one that stamped it later,
// and the partner would already be past it. So every lead writer marks itself (a shared
// advisory lock, held to its commit) and takes its timestamp from the database clock after
// that mark; the listing then returns only leads stamped before the oldest writer still
// running began. SQLite has one writer at a time and takes stamps in commit order, so
// there the clock is the process's own and the listing has no horizon. This file holds
// the SQL of both; lead-stamp.ts holds the rule a lead's own stamps follow.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import { dialectOf, prepared, runText } from '../../db/statements.ts';

// pg_advisory_xact_lock_shared(int4, int4): shows in pg_locks as classid, objid. The
// object is the schema's oid: deployments (and test runs) that share a database in
// schemas of their own do not hold back each other's listings.
const WRITER_CLASS = 0x6c656164; // 'lead'
const WRITER_OBJECT = 'current_schema()::regnamespace::oid';
const ISO_MS = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

/**
 * SQL (PostgreSQL) of the writer's mark and the clock read after it, as two WITH queries
 * (`mark`, then `clock` with its one column `now`) to put in front of a write's first
 * statement: a push reads its clock with its lookups, in one round trip. Volatile WITH
 * queries run once and in this order, the clock only once the mark is held.
 */
export const WRITER_CLOCK_SQL = `mark as (select pg_advisory_xact_lock_shared(${WRITER_CLASS}, ${WRITER_OBJECT}::int4)),
  clock as (select to_char(clock_timestamp() at time zone 'UTC', ${ISO_MS}) as now from mark)`;

const markedClock = prepared('lead_writer_clock', `with ${WRITER_CLOCK_SQL} select now from clock`);

/**
 * The `updated_at` of a write, taken once the transaction is marked as a lead writer
 * (PostgreSQL; SQLite's single writer needs no mark).
 */
export async function writeClock(db: Kysely<Database>): Promise<string> {
  if (dialectOf(db) === 'sqlite') return new Date().toISOString();
  const rows = await runText<{ now: string }>(db, markedClock, []);
  return rows[0]!.now;
}

const horizon = prepared(
  'lead_listing_horizon',
  `select to_char(date_trunc('milliseconds', least(min(a.xact_start), statement_timestamp())) at time zone 'UTC', ${ISO_MS}) as horizon
    from pg_locks l join pg_stat_activity a on a.pid = l.pid
    where l.locktype = 'advisory' and l.classid = ${WRITER_CLASS} and l.objid = ${WRITER_OBJECT} and l.objsubid = 2
      and l.database = (select oid from pg_database where datname = current_database())
      and l.pid <> pg_backend_pid()`,
);

/**
 * The listing returns only leads stamped strictly before this (undefined: no bound). Read
 * in a statement of its own before the listing's, so a writer that commits in between was
 * still counted here.
 */
export async function listingHorizon(db: Kysely<Database>): Promise<string | undefined> {
  if (dialectOf(db) === 'sqlite') return undefined;
  return (await runText<{ horizon: string }>(db, horizon, []))[0]?.horizon;
}
