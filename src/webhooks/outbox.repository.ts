// The outbox's SQL: an event and its deliveries, written in the transaction of the change
// they report (docs/design.md section 5), and the stopped URLs a push or a replay resumes.
import type { Insertable, Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import type { WebhookDeliveryTable, WebhookEventTable } from './webhook.table.ts';

type Db = Kysely<Database>;

export async function insertEvent(
  db: Db,
  event: Insertable<WebhookEventTable>,
  deliveries: readonly Insertable<WebhookDeliveryTable>[],
): Promise<void> {
  await db.insertInto('webhook_events').values(event).execute();
  await db
    .insertInto('webhook_deliveries')
    .values([...deliveries])
    .execute();
}

/** Deliveries to these URLs are sent again: the 410 Gone that stopped them no longer holds. */
export async function deleteStoppedUrls(db: Db, distributionId: string, urls: readonly string[]): Promise<void> {
  await db
    .deleteFrom('webhook_stopped_urls')
    .where('distribution_id', '=', distributionId)
    .where('url', 'in', urls)
    .execute();
}

/** Forgets the 410 Gone remembered for these URLs; the URLs it was remembered for. */
export async function forgetStoppedUrls(db: Db, distributionId: string, urls: readonly string[]): Promise<string[]> {
  if (urls.length === 0) return [];
  const rows = await db
    .deleteFrom('webhook_stopped_urls')
    .where('distribution_id', '=', distributionId)
    .where('url', 'in', urls)
    .returning('url')
    .execute();
  return rows.map((row) => row.url);
}
