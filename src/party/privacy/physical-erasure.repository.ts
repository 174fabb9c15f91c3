// What an erasure must do below SQL so the database files hold none of the erased text
// (docs/design.md section 15; docs/personal-data.md, "Answering an erasure request").
// SQLite overwrites what a delete frees (`secure_delete`, set on every connection by
// node-sqlite-dialect.ts), but the WAL still holds the pages as they were before: a
// TRUNCATE checkpoint copies the current pages back into the database file and empties the
// WAL. PostgreSQL keeps dead tuples' bytes in its files (VACUUM marks the space free, it
// does not overwrite it) until `lead-intake db compact` rewrites the tables
// (compaction.service.ts; docs/postgresql.md, "Erased data and db compact").
import { sql } from 'kysely';
import type { DatabaseHandle } from '../../db/database.ts';

export interface CheckpointOutcome {
  /** False when a reader (another process) kept part of the WAL: the next checkpoint copies it. */
  readonly complete: boolean;
}

export async function checkpointAfterErasure(database: DatabaseHandle): Promise<CheckpointOutcome> {
  if (database.dialect !== 'sqlite' || database.checkpointTruncate === undefined) return { complete: true };
  // The inbox's word index (FTS5) keeps a deleted lead's words, and the words a lead had
  // before an update, in older segments until it merges them: 'optimize' rewrites it as one
  // segment without them, and secure_delete zeroes the pages it frees. It costs the writer
  // about 270 ms at 100,000 leads, once per erasure or retention pass, where keeping the
  // index in 'secure-delete' mode cost every update of a lead's words (migration
  // 2026-11-26T07-00).
  await sql`insert into lead_search (lead_search) values ('optimize')`.execute(database.db);
  // By the checkpoint worker (sqlite-checkpoint-thread.ts): the server's connection running
  // one of its own would find the worker's round under way now and then, and give up.
  return { complete: await database.checkpointTruncate() };
}
