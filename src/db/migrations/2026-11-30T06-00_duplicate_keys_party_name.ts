// SQLite: the index a party's own possible-duplicate keys are found by holds the name beside
// them (party_id, name), so the look-up (party/duplicates/duplicates.repository.ts) reads the
// party's keys and its name from that index alone. Before, each of the party's keys was one
// more descent into the table's primary key b-tree for its name: some five per look-up, four
// levels deep at a million parties (docs/benchmarks.md, "Possible duplicates"). A push that
// writes a party's keys writes the same number of index entries. PostgreSQL keeps its index
// (1.07x at a million). Frozen in time: Kysely<any>, no app imports.
import { type Kysely, PostgresAdapter, sql } from 'kysely';

const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

async function partyIndex(db: Kysely<any>, columns: string[]): Promise<void> {
  await sql`drop index party_duplicate_keys_party`.execute(db);
  await db.schema.createIndex('party_duplicate_keys_party').on('party_duplicate_keys').columns(columns).execute();
}

export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) await partyIndex(db, ['party_id', 'name']);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) await partyIndex(db, ['party_id']);
}
