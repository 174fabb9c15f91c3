// `lead-intake db compact` (docs/design.md section 14; docs/postgresql.md, "Erased data and
// db compact"): deleting rows leaves their bytes in free space until the table is
// rewritten, so after an erasure the data files still hold the person until then. This
// rewrites every table that holds personal data, the ones the erasure reaches
// (party-rows.repository.ts, so a table added there is compacted too) and the remembered
// 410s of callback URLs: on PostgreSQL one VACUUM FULL per table, each holding its table's
// lock for as long as it runs and no other; on SQLite one VACUUM of the file, then the
// WAL emptied.
import type { DatabaseHandle } from '../../db/database.ts';
import { LOCK_NOT_AVAILABLE, sqliteBytes, tableBytes, vacuumFullTable, vacuumSqlite } from './compaction.repository.ts';
import { PARTY_ROWS } from './party-rows.repository.ts';

export interface CompactedTable {
  readonly table: string;
  /** The lock it held while rewritten. */
  readonly lock: string;
  readonly ms: number;
  readonly bytes_before: number;
  readonly bytes_after: number;
}

export interface CompactionReport {
  readonly dialect: 'sqlite' | 'postgres';
  readonly tables: CompactedTable[];
}

/** How long a VACUUM FULL waits for its table's lock before it tries again later. */
const LOCK_TIMEOUT_MS = 2_000;
const LOCK_TRIES = 5;

/** The tables that hold a person's data, in the erasure's order. */
export function personalTables(): string[] {
  const tables = PARTY_ROWS.flatMap((rows) => [rows.table, ...(rows.covers ?? [])]);
  return [...new Set([...tables, 'webhook_stopped_urls'])];
}

export async function compactPersonalData(
  database: DatabaseHandle,
  progress: (line: string) => void,
): Promise<CompactionReport> {
  const { db } = database;
  if (database.dialect === 'sqlite') {
    const lock = 'the database write lock (reads carry on)';
    progress(`compacting the SQLite database (VACUUM) under ${lock}…`);
    const before = await sqliteBytes(db);
    const started = performance.now();
    const { reindexed } = await vacuumSqlite(db);
    const ms = Math.round(performance.now() - started);
    if (reindexed) progress('  leads were renumbered: the inbox projector indexes their words again');
    // The WAL holds the pages as they were: copied back and emptied.
    await database.checkpointTruncate?.();
    const after = await sqliteBytes(db);
    progress(`  done in ${ms} ms: ${megabytes(before)} -> ${megabytes(after)}`);
    return { dialect: 'sqlite', tables: [{ table: '*', lock, ms, bytes_before: before, bytes_after: after }] };
  }
  const tables = personalTables();
  const report: CompactedTable[] = [];
  const lock = 'ACCESS EXCLUSIVE';
  for (const [index, table] of tables.entries()) {
    progress(`[${index + 1}/${tables.length}] ${table}: VACUUM FULL under an ${lock} lock…`);
    const before = await tableBytes(db, table);
    let ms = 0;
    for (let tries = 1; ; tries++) {
      const started = performance.now();
      try {
        await vacuumFullTable(db, table, LOCK_TIMEOUT_MS);
        ms = Math.round(performance.now() - started);
        break;
      } catch (error) {
        if ((error as { code?: string }).code !== LOCK_NOT_AVAILABLE || tries === LOCK_TRIES) throw error;
        progress(`  ${table} is in use: its lock not granted within ${LOCK_TIMEOUT_MS} ms; trying again`);
      }
    }
    const after = await tableBytes(db, table);
    progress(`  held it ${ms} ms: ${megabytes(before)} -> ${megabytes(after)}`);
    report.push({ table, lock, ms, bytes_before: before, bytes_after: after });
  }
  return { dialect: 'postgres', tables: report };
}

function megabytes(bytes: number): string {
  return bytes < 1_048_576 ? `${Math.round(bytes / 1024)} kB` : `${(bytes / 1_048_576).toFixed(1)} MB`;
}
