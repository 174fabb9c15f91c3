// The webhook deliveries of the events about a lead, as the worker left them in the database.
// A test that asserts what was not sent waits first until the worker is done with every
// delivery about the lead (none pending, none held by a claim): then everything that was to
// be sent has been (docs/design.md section 10, "Tests").
import type { Kysely } from 'kysely';
import type { Database } from '../../src/db/database.ts';
import { eventually } from './eventually.ts';

export async function deliveriesAbout(db: Kysely<Database>, leadId: string) {
  return db
    .selectFrom('webhook_deliveries')
    .innerJoin('webhook_events', 'webhook_events.id', 'webhook_deliveries.event_id')
    .select(['webhook_events.type', 'webhook_deliveries.status', 'webhook_deliveries.attempts'])
    .where('webhook_events.lead_id', '=', leadId)
    .orderBy('webhook_events.created_at')
    .execute();
}

/** The deliveries about the lead once none is pending any more (each delivered or failed). */
export async function settledDeliveriesAbout(db: Kysely<Database>, leadId: string) {
  return eventually(
    async () => {
      const deliveries = await deliveriesAbout(db, leadId);
      return deliveries.length > 0 && deliveries.every((delivery) => delivery.status !== 'pending')
        ? deliveries
        : undefined;
    },
    20_000,
    `the deliveries about lead ${leadId} to be done`,
  );
}
