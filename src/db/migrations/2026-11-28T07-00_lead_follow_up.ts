// The day a broker means to come back to a lead (docs/design.md section 13): `follow_up_on`,
// a date (YYYY-MM-DD) or null, set by the lead PATCH and the lead page, never by a push.
// The inbox filters by it (overdue, today, this week) and sorts by it: a partial index, so
// the many leads without a follow-up (every new one) cost it nothing.
// Frozen: written against Kysely<any>, imports nothing of the app.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('leads').addColumn('follow_up_on', 'text').execute();
  await db.schema
    .createIndex('leads_follow_up')
    .on('leads')
    .columns(['distribution_id', 'follow_up_on', 'id'])
    .where(sql.ref('follow_up_on'), 'is not', null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('leads_follow_up').execute();
  await db.schema.alterTable('leads').dropColumn('follow_up_on').execute();
}
