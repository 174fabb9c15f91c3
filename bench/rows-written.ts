// Rows a bench database has had written so far, read from outside the server (so for any
// revision): on PostgreSQL inserted + updated + deleted by the table statistics, triggers'
// rows included, once every server connection has gone (each flushes its own statistics
// as it exits); on SQLite the rows in every table, the word index's own tables included,
// so there an update adds none.
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { type BenchDatabase, SQLITE_FILE } from './database.ts';

export async function rowsWritten(database: BenchDatabase): Promise<number> {
  return database.dialect === 'sqlite' ? sqliteRows(database.env.DATA_DIR!) : postgresRows(database.env.DATABASE_URL!);
}

function sqliteRows(dataDir: string): number {
  const db = new DatabaseSync(path.join(dataDir, SQLITE_FILE), { readOnly: true });
  try {
    const tables = db
      .prepare("select name from sqlite_master where type = 'table' and sql not like 'CREATE VIRTUAL TABLE%'")
      .all() as Array<{ name: string }>;
    return tables.reduce(
      (sum, { name }) =>
        sum +
        Number((db.prepare(`select count(*) as n from "${name.replaceAll('"', '""')}"`).get() as { n: number }).n),
      0,
    );
  } finally {
    db.close();
  }
}

async function postgresRows(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const deadline = Date.now() + 10_000;
    const others =
      'select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()';
    while ((await client.query<{ n: number }>(others)).rows[0]!.n > 0) {
      if (Date.now() > deadline)
        throw new Error('connections to the bench database stayed open after its server stopped');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const { rows } = await client.query<{ n: string }>(
      'select coalesce(sum(n_tup_ins + n_tup_upd + n_tup_del), 0) as n from pg_stat_user_tables',
    );
    return Number(rows[0]!.n);
  } finally {
    await client.end();
  }
}
