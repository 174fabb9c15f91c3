// A change listing that never skips (docs/design.md section 9). A partner keeps the newest
// `updated_at` it saw (or the `next` link) and asks again later; on PostgreSQL a
// transaction that stamped its lead earlier can commit after one that stamped it later,
// and the partner would already be past it. So every lead writer marks itself (a shared
// advisory lock, held to its commit) and takes its timestamp from the database clock after
// that mark; the listing then returns only leads stamped before the oldest writer still
// running began. SQLite has one writer at a time and takes stamps in commit order, so
// there the clock is the process's own and the listing has no horizon.
import { type Kysely, PostgresAdapter, sql } from 'kysely';
import type { Database } from '../db/database.ts';

// pg_advisory_xact_lock_shared(int4, int4): shows in pg_locks as classid, objid.
const WRITER_CLASS = 0x6c656164; // 'lead'
const WRITER_OBJECT = 1;
const ISO_MS = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

const isPostgres = (db: Kysely<Database>) => db.getExecutor().adapter instanceof PostgresAdapter;

/** The `updated_at` of a write, taken once the transaction is marked as a lead writer. */
export async function writeClock(db: Kysely<Database>): Promise<string> {
  if (!isPostgres(db)) return new Date().toISOString();
  const { rows } = await sql<{ now: string }>`
    select to_char(clock_timestamp() at time zone 'UTC', ${sql.raw(ISO_MS)}) as now
    from (select pg_advisory_xact_lock_shared(${WRITER_CLASS}, ${WRITER_OBJECT})) as marked`.execute(db);
  return rows[0]!.now;
}

/**
 * The listing returns only leads stamped strictly before this (undefined: no bound). Read
 * in a statement of its own before the listing's, so a writer that commits in between was
 * still counted here.
 */
export async function listingHorizon(db: Kysely<Database>): Promise<string | undefined> {
  if (!isPostgres(db)) return undefined;
  const { rows } = await sql<{ horizon: string }>`
    select to_char(date_trunc('milliseconds', least(min(a.xact_start), statement_timestamp())) at time zone 'UTC', ${sql.raw(ISO_MS)}) as horizon
    from pg_locks l join pg_stat_activity a on a.pid = l.pid
    where l.locktype = 'advisory' and l.classid = ${WRITER_CLASS} and l.objid = ${WRITER_OBJECT} and l.objsubid = 2
      and l.database = (select oid from pg_database where datname = current_database())
      and l.pid <> pg_backend_pid()`.execute(db);
  return rows[0]?.horizon;
}
