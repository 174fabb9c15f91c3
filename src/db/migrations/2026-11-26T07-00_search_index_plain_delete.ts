// The inbox's word index on SQLite (FTS5 `lead_search`) goes back to its ordinary deletes.
// With 'secure-delete' on (2026-11-26T05-00), every update of a lead's words rewrote the
// index entries of each of them, and the entry of a word or prefix a whole distribution
// shares (a city, a domain, "j") is as long as the distribution: a merge push cost about
// 600 µs more at 1,000 leads and 1.4 ms more at 100,000. What an erasure needs instead
// happens after it (src/party/privacy/physical-erasure.repository.ts: the index rewritten without the erased
// words, then the WAL checkpoint; docs/design.md section 15).
// Frozen: written against Kysely<any>, imports nothing of the app.
import { type Kysely, PostgresAdapter, sql } from 'kysely';

const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) {
    await sql`insert into lead_search (lead_search, rank) values ('secure-delete', 0)`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) {
    await sql`insert into lead_search (lead_search, rank) values ('secure-delete', 1)`.execute(db);
  }
}
