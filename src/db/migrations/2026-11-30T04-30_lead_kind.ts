// The inbox's Kind order from an index (docs/design.md section 13, the inbox): the party's
// type (COMPANY or CUSTOMER, which never changes; a merge refuses two kinds) kept on its
// lead, written with the lead, and indexed with the id. Sorting by the parties' type when
// asked took 155-450 ms for a first page at 100,000 leads (docs/benchmarks.md).
// Frozen: written against Kysely<any>, imports nothing of the app.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('leads').addColumn('kind', 'text').execute();
  await sql`update leads set kind = (select parties.type from parties where parties.id = leads.party_id)`.execute(db);
  await db.schema.createIndex('leads_kind').on('leads').columns(['distribution_id', 'kind', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('leads_kind').execute();
  await db.schema.alterTable('leads').dropColumn('kind').execute();
}
