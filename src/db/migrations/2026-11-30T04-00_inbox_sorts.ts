// The inbox ordered by what a column shows (docs/design.md section 13, "sort by any column
// either way"): the status in its workflow order and the origin, each from an index in
// (value, id) order, so their first page costs the same at any number of leads. The status
// rank is an expression the inbox's query writes exactly so (party/inbox/inbox.repository.ts,
// STATUS_RANK); the origin's index is partial, as leads without one come after, newest first
// (leads_received). Name, kind and assignee get theirs in the migrations after this one
// (docs/design.md section 13).
// Frozen: written against Kysely<any>, imports nothing of the app.
import { type Kysely, sql } from 'kysely';

const RANK =
  "(case status when 'new' then 0 when 'contacted' then 1 when 'quoted' then 2 when 'won' then 3 when 'lost' then 4 end)";

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index leads_status_order on leads (distribution_id, ${sql.raw(RANK)}, id)`.execute(db);
  await db.schema
    .createIndex('leads_origin')
    .on('leads')
    .columns(['distribution_id', 'origin', 'id'])
    .where(sql.ref('origin'), 'is not', null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('leads_origin').execute();
  await db.schema.dropIndex('leads_status_order').execute();
}
