// Where leads come from (docs/design.md section 13, `/app/sources` and `.../stats/sources`):
// each push's day, origin, sender and outcome read from one index range (leads_pushes_sources
// covers them, so the pushes of a period are counted without reading a row), and when a
// lead's status first moved from `new` (`first_status_at`, set by the broker's first status
// change and never again; for leads already moved, the last change known is the best guess).
// Frozen: written against Kysely<any>, imports nothing of the app.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('leads').addColumn('first_status_at', 'text').execute();
  await db.updateTable('leads').set({ first_status_at: sql`status_changed_at` }).where('status', '<>', 'new').execute();
  await db.schema
    .createIndex('lead_pushes_sources')
    .on('lead_pushes')
    .columns(['distribution_id', 'received_at', 'status', 'origin', 'caller', 'lead_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('lead_pushes_sources').execute();
  await db.schema.alterTable('leads').dropColumn('first_status_at').execute();
}
