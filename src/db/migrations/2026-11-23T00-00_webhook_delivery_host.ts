// Each delivery names its receiver's host (docs/design.md section 5): the worker caps attempts per host,
// so one dead or slow receiver cannot hold every slot, and it claims per host, so a
// backlog for one host never hides another host's due delivery. Frozen in time: written
// against Kysely<any>, never importing app code (the host is derived here as the outbox
// derives it: the URL's lower-case host, with a port when one is given).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('webhook_deliveries').addColumn('host', 'text').execute();
  const rows: Array<{ id: string; url: string }> = await db
    .selectFrom('webhook_deliveries')
    .select(['id', 'url'])
    .execute();
  for (const row of rows) {
    const host = URL.parse(row.url)?.host.toLowerCase() ?? '';
    await db.updateTable('webhook_deliveries').set({ host }).where('id', '=', row.id).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('webhook_deliveries').dropColumn('host').execute();
}
