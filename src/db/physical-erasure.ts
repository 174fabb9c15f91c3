// What an erasure must do below SQL so the database files hold none of the erased text
// (docs/design.md section 14; README, "Personal data"). SQLite overwrites what a delete
// frees (`secure_delete`, set on every connection by node-sqlite-dialect.ts), but the WAL
// still holds the pages as they were before: a TRUNCATE checkpoint copies the current pages
// back into the database file and empties the WAL. PostgreSQL keeps dead tuples until
// VACUUM reclaims them (autovacuum, or VACUUM run by the operator): the README says so.
import { sql } from 'kysely';
import type { DatabaseHandle } from './database.ts';

export interface CheckpointOutcome {
  /** False when a reader (another process) kept part of the WAL: the next checkpoint copies it. */
  readonly complete: boolean;
}

export async function checkpointAfterErasure(database: DatabaseHandle): Promise<CheckpointOutcome> {
  if (database.dialect !== 'sqlite') return { complete: true };
  const { rows } = await sql<{
    busy: number;
    log: number;
    checkpointed: number;
  }>`pragma wal_checkpoint(truncate)`.execute(database.db);
  const row = rows[0];
  return { complete: row !== undefined && Number(row.busy) === 0 };
}
