// The outbox's SQL: an event and its deliveries, written in the transaction of the change
// they report (docs/design.md section 5), and the stopped URLs a push or a replay resumes.
// Fixed texts (db/statements.ts), so a push with a callback builds and compiles no query:
// on PostgreSQL what one write adds to the outbox is one statement (a round trip each was
// two of a push's eight); SQLite, whose statements cost no round trip, runs them one by one.
import type { Insertable, Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import { dialectOf, prepared, run, runText, statement } from '../db/statements.ts';
import type { WebhookEventTable } from './webhook.table.ts';

type Db = Kysely<Database>;

/**
 * An event and one delivery per URL it goes to: each pending, due at the event's
 * `created_at`, no attempt yet (what every delivery starts as).
 */
export interface EventRows {
  readonly event: Insertable<WebhookEventTable>;
  readonly deliveries: ReadonlyArray<{ readonly id: string; readonly url: string; readonly host: string }>;
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
    await runText(db, INSERT_EVENT_SQLITE, eventValues(event));
    await runText(db, INSERT_DELIVERIES_SQLITE, deliveryValues(event));
    return;
  }
  await runText(db, INSERT_EVENT_WITH_DELIVERIES, [
    ...eventValues(event),
    JSON.stringify(event.deliveries),
    resume?.distributionId ?? null,
    resume ? [...resume.urls] : [],
  ]);
}

const eventValues = ({ event }: EventRows) => [
  event.id,
  event.distribution_id,
  event.type,
  event.lead_id,
  event.party_id,
  event.payload,
  event.created_at,
];

const deliveryValues = ({ event, deliveries }: EventRows) => [
  event.id,
  event.distribution_id,
  event.created_at,
  JSON.stringify(deliveries),
];

const EVENT_COLUMNS = 'id, distribution_id, type, lead_id, party_id, payload, created_at';
const DELIVERY_COLUMNS = `id, event_id, distribution_id, url, host, status, next_attempt_at, claim_id, attempts,
  round_start, last_status_code, last_error, created_at, updated_at`;

const INSERT_EVENT_SQLITE = `insert into webhook_events (${EVENT_COLUMNS}) values (?1, ?2, ?3, ?4, ?5, ?6, ?7)`;

// Deliveries as JSON ([{ id, url, host }]), one row each; the rest is the event's.
const INSERT_DELIVERIES_SQLITE = `insert into webhook_deliveries (${DELIVERY_COLUMNS})
  select value ->> '$.id', ?1, ?2, value ->> '$.url', value ->> '$.host', 'pending', ?3, null, 0, 0, null, null, ?3, ?3
  from json_each(?4)`;

// PostgreSQL: the event, its deliveries and the URLs the push resumes in one statement. Every
// data-modifying part of a WITH runs, referenced or not; the deliveries' foreign key to the
// event is checked at the statement's end, when the event is there.
const INSERT_EVENT_WITH_DELIVERIES = prepared(
  'outbox_insert_event_with_deliveries',
  `with event as (
      insert into webhook_events (${EVENT_COLUMNS}) values ($1, $2, $3, $4, $5, $6, $7)
    ), resumed as (
      delete from webhook_stopped_urls where distribution_id = $9 and url = any($10::text[])
    )
    insert into webhook_deliveries (${DELIVERY_COLUMNS})
    select d.id, $1, $2, d.url, d.host, 'pending', $7, null, 0, 0, null, null, $7, $7
    from jsonb_to_recordset($8::jsonb) as d(id text, url text, host text)`,
);

/** Deliveries to these URLs are sent again: the 410 Gone that stopped them no longer holds. */
export async function deleteStoppedUrls(db: Db, distributionId: string, urls: readonly string[]): Promise<void> {
  await run(db, deleteStopped, [distributionId, [...urls]]);
}

const deleteStopped = statement('outbox_delete_stopped_urls', {
  sqlite: 'delete from webhook_stopped_urls where distribution_id = ?1 and url in (select value from json_each(?2))',
  postgres: 'delete from webhook_stopped_urls where distribution_id = $1 and url = any($2::text[])',
});

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
