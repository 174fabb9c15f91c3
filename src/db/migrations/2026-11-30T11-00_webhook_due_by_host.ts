// The worker's claim reads each receiver host's first due deliveries from an index in host
// order (issue 34; docs/design.md section 5), where it ranked every due delivery by host: a
// claim under a backlog of B due deliveries sorted all B (about 2 ms at 2,700 on SQLite, once
// per claim, so a worker that fell behind fell further behind). Now it steps from host to
// host in this index and takes at most `perHost` rows of each: its cost follows the hosts
// and the claim's size, not the backlog.
// A delivery's host is always written (the URL's host, '' when it has none), and
// 2026-11-23T00-00 filled the rows from before it; any row still without one takes '' here,
// so every pending row is reached by a step of the claim. Frozen in time: Kysely<any>, no app imports.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`update webhook_deliveries set host = '' where host is null`.execute(db);
  await db.schema
    .createIndex('webhook_deliveries_due_host')
    .on('webhook_deliveries')
    .columns(['host', 'next_attempt_at', 'id'])
    .where(sql.ref('status'), '=', 'pending')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('webhook_deliveries_due_host').execute();
}
