// The SQL of `lead-intake db compact` (docs/design.md section 14; docs/postgresql.md,
// "Erased data and db compact"): the statements that rewrite a table, and how large the
// table or the database file is. Every function takes the database first; none runs in a
// transaction (VACUUM cannot).
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/database.ts';

type Db = Kysely<Database>;

/** PostgreSQL's error when a lock was not granted within lock_timeout. */
export const LOCK_NOT_AVAILABLE = '55P03';

/** A table's bytes on disk with its indexes and TOAST (PostgreSQL). */
export async function tableBytes(db: Db, table: string): Promise<number> {
  const { rows } = await sql<{ bytes: string }>`select pg_total_relation_size(${table}::regclass) as bytes`.execute(db);
  return Number(rows[0]!.bytes);
}

/**
 * VACUUM FULL of one table (PostgreSQL): a new copy of the table and its indexes with only
 * the live rows, the old files removed. It holds an ACCESS EXCLUSIVE lock on the table for
 * its whole run; waiting for that lock longer than `lockTimeoutMs` gives up (LOCK_NOT_AVAILABLE)
 * rather than queueing every request on the table behind it.
 */
export async function vacuumFullTable(db: Db, table: string, lockTimeoutMs: number): Promise<void> {
  await db.connection().execute(async (connection) => {
    await sql`select set_config('lock_timeout', ${`${lockTimeoutMs}ms`}, false)`.execute(connection);
    try {
      await sql`vacuum full ${sql.table(table)}`.execute(connection);
    } finally {
      await sql`reset lock_timeout`.execute(connection);
    }
  });
}

/** The SQLite database file's size: its pages. */
export async function sqliteBytes(db: Db): Promise<number> {
  const count = await sql<{ page_count: number }>`pragma page_count`.execute(db);
  const size = await sql<{ page_size: number }>`pragma page_size`.execute(db);
  return Number(count.rows[0]!.page_count) * Number(size.rows[0]!.page_size);
}

/**
 * VACUUM of the whole SQLite database: rewritten without free pages, under the database's
 * write lock (readers carry on). The inbox's word index (contentless FTS5) names leads by
 * rowid, which SQLite allows a VACUUM to renumber for a table without an INTEGER PRIMARY
 * KEY (3.53 keeps them): should any lead's rowid have moved, the index is emptied and its
 * marks reset, so the inbox projector indexes every lead again (a search meanwhile reads the
 * leads past the mark from `leads` itself). True when it had to.
 */
export async function vacuumSqlite(db: Db): Promise<{ reindexed: boolean }> {
  await sql`create temp table compact_lead_rowids as select rowid as lead_rowid, id from leads`.execute(db);
  try {
    await sql`vacuum main`.execute(db);
    const { rows } = await sql<{ moved: number }>`select count(*) as moved from leads
      join temp.compact_lead_rowids as before on before.id = leads.id where before.lead_rowid <> leads.rowid`.execute(
      db,
    );
    if (Number(rows[0]!.moved) === 0) return { reindexed: false };
    await db.transaction().execute(async (trx) => {
      await sql`insert into lead_search (lead_search) values ('delete-all')`.execute(trx);
      await sql`update lead_projections set indexed_at = '', indexed_id = ''`.execute(trx);
    });
    return { reindexed: true };
  } finally {
    await sql`drop table temp.compact_lead_rowids`.execute(db);
  }
}
