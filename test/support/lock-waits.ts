// Who waits for a lock on PostgreSQL while a test's writes run (docs/design.md section 13,
// "How far behind the inbox may be": no row that every push writes): pg_locks read over and
// over on a connection of the test's own until stopped. Counted are backends of the test's
// schema (they hold a lock on one of its tables) that wait for a lock on a row or a table,
// other than the backend holding the shared rows on purpose. Locks on a table's storage
// are left out: two inserts that both need a new page of lead_pushes wait for each other for
// the moment the file grows ("extend", and "page" for a GIN index's pending list), whichever
// rows they write; that is not a shared row.
import type pg from 'pg';

export interface LockWaits {
  /** How many times pg_locks was read: at least once, or the waits prove nothing. */
  readonly samples: number;
  /** Every wait seen: the waiting backend, the lock's type and mode, and its table. */
  readonly waits: readonly unknown[];
}

/** Starts sampling on `sampler` (a connection used for nothing else meanwhile); the function returned stops it. */
export function sampleLockWaits(sampler: pg.Client, holderPid: number): () => Promise<LockWaits> {
  let samples = 0;
  const waits: unknown[] = [];
  let sampling = true;
  const loop = (async () => {
    while (sampling) {
      const { rows } = await sampler.query(
        `select w.pid, w.locktype, w.mode, w.relation::regclass::text as relation from pg_locks w
          where not w.granted and w.pid <> $1 and w.locktype not in ('extend', 'page') and exists (select 1 from pg_locks h join pg_class c on c.oid = h.relation
            where h.pid = w.pid and c.relnamespace = current_schema()::regnamespace)`,
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
