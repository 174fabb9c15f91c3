// SQLite: the inbox projector indexes a lead's words again only when they changed (issue 34;
// docs/design.md section 13, "How far behind the inbox may be"). It re-indexed every lead
// past its mark, and most writes that stamp a lead keep its words: a re-sync changing a
// birth date or a policy, a broker's status change, a note. Replacing a lead's row of the
// FTS5 index costs the projector some 15 to 45 µs (docs/benchmarks.md), per lead and run.
//
// - `leads.words_at`: the lead's `updated_at` at the last write that changed its
//   `search_words`; null while they are those it was created with. The lead's update sets it
//   in the same statement (`case when search_words = <new> then words_at else <stamp> end`).
// - `lead_orders.words_at`: the `words_at` of the lead whose words `lead_search` holds, written
//   with the lead's row by the projector. A lead past the mark is indexed again when the two
//   differ (or it has no row yet). The lead's own copy is what makes it right where a mark
//   alone would not be: a lead whose words changed, and then changed again without its words
//   past the end of a projector's batch, is still indexed once it is reached.
// - Rows there before take '' (a default, no rewrite): every such lead is indexed once more
//   the next time it is past the mark, as before.
// PostgreSQL indexes the words in the write's own transaction (GIN): nothing to do there.
// Frozen in time: Kysely<any>, no app imports.
import { type Kysely, PostgresAdapter, sql } from 'kysely';

const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) return;
  await sql`alter table leads add column words_at text`.execute(db);
  await sql`alter table lead_orders add column words_at text default ''`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) return;
  await sql`alter table lead_orders drop column words_at`.execute(db);
  await sql`alter table leads drop column words_at`.execute(db);
}
