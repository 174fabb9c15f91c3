// The inbox's Assigned-to order from an index (docs/design.md section 13, the inbox): the
// assigned leads of one assignee in id order, which the inbox walks assignee by assignee in
// the order of their usernames (party/inbox/inbox.repository.ts, pageByAssignee). Sorting
// by username when asked took 200-360 ms for a first page at 100,000 leads
// (docs/benchmarks.md). Partial, as leads_assignee: an unassigned lead costs it nothing.
// Frozen: written against Kysely<any>, imports nothing of the app.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('leads_assignee_order')
    .on('leads')
    .columns(['distribution_id', 'assignee_id', 'id'])
    .where(sql.ref('assignee_id'), 'is not', null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('leads_assignee_order').execute();
}
