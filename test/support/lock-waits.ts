// Who waits for a lock on PostgreSQL while a test's writes run (docs/design.md section 13,
// "How far behind the inbox may be": no row that every push writes): pg_locks read over and
// over on a connection of the test's own until stopped. Counted are backends of the test's
// schema (they hold a lock on one of its tables) that wait for a lock on a row or a table,
// other than the backend holding the shared rows on purpose. Locks on a table's storage
// are left out: two inserts that both need a new page of lead_pushes wait for each other for
// the moment the file grows ("extend", and "page" for a GIN index's pending list), whichever
// rows they write; that is not a shared row.
import type { Kysely } from 'kysely';
import type pg from 'pg';
import type { Database } from '../../src/db/database.ts';
import { eventually } from './eventually.ts';

export interface LockWaits {
  /** How many times pg_locks was read: at least once, or the waits prove nothing. */
  readonly samples: number;
  /** Every wait seen: the waiting backend, the lock's type and mode, and its table. */
  readonly waits: readonly unknown[];
}

/**
 * Starts sampling on `sampler` (a connection used for nothing else meanwhile); the function
 * returned stops it. pg_locks is the whole cluster's and a table's oid only its database's: a
 * backend of another database (another test run) waiting while it held a table whose oid this
 * schema also has was counted here until the waiting backend's locks were kept to this database.
 */
export function sampleLockWaits(sampler: pg.Client, holderPid: number): () => Promise<LockWaits> {
  let samples = 0;
  const waits: unknown[] = [];
  let sampling = true;
  const loop = (async () => {
    while (sampling) {
      const { rows } = await sampler.query(
        `select w.pid, w.locktype, w.mode, w.relation::regclass::text as relation from pg_locks w
          where not w.granted and w.pid <> $1 and w.locktype not in ('extend', 'page') and exists (select 1 from pg_locks h join pg_class c on c.oid = h.relation
            where h.pid = w.pid and h.database = (select oid from pg_database where datname = current_database())
              and c.relnamespace = current_schema()::regnamespace)`,
        [holderPid],
      );
      samples++;
      waits.push(...rows);
    }
  })();
  return async () => {
    sampling = false;
    await loop;
    return { samples, waits };
  };
}

/**
 * Waits until a projector has counted the distribution's first leads, so its counts row and
 * the projector's mark exist and can be held (a row that does not exist yet locks nothing).
 */
export async function firstLeadsCounted(db: Kysely<Database>, distributionId: string): Promise<void> {
  await eventually(
    async () =>
      (await db
        .selectFrom('lead_status_counts')
        .select('leads')
        .where('distribution_id', '=', distributionId)
        .executeTakeFirst()) !== undefined,
    30_000,
    'the first leads counted',
  );
}

/**
 * Begins a transaction on `holder` that locks the rows `locking` selects (a count of the rows
 * it locked, as `rows`), and says how many it holds and which backend holds them: the one
 * sampleLockWaits leaves out. The caller commits it.
 */
export async function holdRows(
  holder: pg.Client,
  locking: string,
  parameters: unknown[],
): Promise<{ readonly rows: number; readonly holderPid: number }> {
  await holder.query('begin');
  const held = await holder.query<{ rows: string }>(locking, parameters);
  const holderPid = (await holder.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
  return { rows: Number(held.rows[0]!.rows), holderPid };
}
