// The columns of the tables as the migrations create them, read back from a scratch SQLite
// database migrated to the latest version: a benchmark that writes rows straight to the
// database names the same columns, in the same order, whatever a migration changed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';

export interface TableColumns {
  /** In the table's order. */
  readonly names: readonly string[];
  /** Those declared `integer` (PostgreSQL needs the type of an unnested array). */
  readonly integers: ReadonlySet<string>;
}

export async function migratedColumns<Table extends string>(
  tables: readonly Table[],
): Promise<Record<Table, TableColumns>> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lead-intake-tables-'));
  const handle = openDatabase({ databaseUrl: undefined, dataDir, sqliteSynchronous: 'NORMAL' });
  try {
    await migrateToLatest(handle.db);
    const found = await handle.db.introspection.getTables();
    const result = {} as Record<Table, TableColumns>;
    for (const table of tables) {
      const columns = found.find((meta) => meta.name === table)?.columns;
      if (!columns) throw new Error(`the migrations create no table ${table}`);
      const integers = columns.filter((column) => column.dataType.toLowerCase() === 'integer');
      result[table] = { names: columns.map((column) => column.name), integers: new Set(integers.map((c) => c.name)) };
    }
    return result;
  } finally {
    await handle.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
