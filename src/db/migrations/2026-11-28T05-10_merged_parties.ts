// Parties merged into another (docs/api.md, "Merging two parties"): the merged party's and
// lead's ids, who they were merged into and by whom, when. Reads of a merged id answer 410
// `Merged` with the survivor's ids, a push naming it reaches the survivor, and the change
// listing shows the merged lead once. Ids only, nothing about the person. Frozen in time:
// Kysely<any>, no app imports.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('merged_parties')
    .addColumn('party_id', 'text', (c) => c.primaryKey())
    .addColumn('lead_id', 'text', (c) => c.notNull().unique())
    .addColumn('distribution_id', 'text', (c) => c.notNull().references('distributions.id'))
    .addColumn('merged_into_party_id', 'text', (c) => c.notNull())
    .addColumn('merged_into_lead_id', 'text', (c) => c.notNull())
    .addColumn('merged_at', 'text', (c) => c.notNull())
    .addColumn('merged_by', 'text', (c) => c.notNull())
    .execute();
  // A later merge of the survivor moves the earlier merged ids along with it.
  await db.schema.createIndex('merged_parties_into').on('merged_parties').column('merged_into_party_id').execute();
  // The change listing reads merged leads in (updated_at, id) order, as it reads leads.
  await db.schema
    .createIndex('merged_parties_listing')
    .on('merged_parties')
    .columns(['distribution_id', 'merged_at', 'lead_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('merged_parties').execute();
}
