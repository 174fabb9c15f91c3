// The outbox's SQL: an event and its deliveries, written in the transaction of the change
// they report (docs/design.md section 5), and the stopped URLs a push or a replay resumes.
// On PostgreSQL what one write adds to the outbox is one statement (a round trip each was
// two of a push's eight); SQLite, whose statements cost no round trip, runs them one by one.
import type { Insertable, Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import { dialectOf } from '../db/statements.ts';
import type { WebhookDeliveryTable, WebhookEventTable } from './webhook.table.ts';

type Db = Kysely<Database>;

/** An event and one delivery per URL it goes to. */
export interface EventRows {
  readonly event: Insertable<WebhookEventTable>;
  readonly deliveries: readonly Insertable<WebhookDeliveryTable>[];
}

/** The URLs a push lists again, whose stopped deliveries resume (deleteStoppedUrls). */
export interface ResumedUrls {
  readonly distributionId: string;
  readonly urls: readonly string[];
}

/** The stopped URLs resumed and the event written, either or both, in the caller's transaction. */
export async function writeOutbox(db: Db, work: { resume?: ResumedUrls; event?: EventRows }): Promise<void> {
  const { resume, event } = work;
  if (dialectOf(db) === 'sqlite' || event === undefined) {
    if (resume) await deleteStoppedUrls(db, resume.distributionId, resume.urls);
    if (event === undefined) return;
    await db.insertInto('webhook_events').values(event.event).execute();
    await db
      .insertInto('webhook_deliveries')
      .values([...event.deliveries])
      .execute();
    return;
  }
  // Every data-modifying part of a WITH runs, referenced or not; the deliveries' foreign key
  // to the event is checked at the statement's end, when the event is there.
  const withEvent = db.with('event', (qc) => qc.insertInto('webhook_events').values(event.event).returning('id'));
  const written = resume
    ? withEvent.with('resumed', (qc) =>
        qc
          .deleteFrom('webhook_stopped_urls')
          .where('distribution_id', '=', resume.distributionId)
          .where('url', 'in', resume.urls)
          .returning('url'),
      )
    : withEvent;
  await written
    .insertInto('webhook_deliveries')
    .values([...event.deliveries])
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
