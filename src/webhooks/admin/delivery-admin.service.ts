// What the operator sees and does from the CLI (`lead-intake webhook deliveries|replay`):
// deliveries with every attempt (status code, latency, error), and sending them again.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import {
  type DeliveryFilter,
  findFailedDelivery,
  markDueAgain,
  type ReplayTarget,
  selectAttempts,
  selectDeliveries,
  selectReplayed,
} from './delivery-admin.repository.ts';
import { deleteStoppedUrls } from '../outbox.repository.ts';

export type { DeliveryFilter } from './delivery-admin.repository.ts';

type Db = Kysely<Database>;

export class UnknownDeliveryError extends Error {
  constructor(id: string) {
    super(`unknown webhook delivery ${JSON.stringify(id)}`);
    this.name = 'UnknownDeliveryError';
  }
}

/** The newest deliveries matching the filter, each with its attempts, oldest attempt first. */
export async function listDeliveries(db: Db, filter: DeliveryFilter) {
  const deliveries = await selectDeliveries(db, filter);
  const attempts =
    deliveries.length === 0
      ? []
      : await selectAttempts(
          db,
          deliveries.map((d) => d.id),
        );
  return deliveries.map((delivery) => ({
    ...delivery,
    // A claimed delivery's next_attempt_at is its lease, not a plan: only shown while pending.
    next_attempt_at: delivery.status === 'pending' ? delivery.next_attempt_at : null,
    last_status_code: delivery.last_status_code === null ? null : Number(delivery.last_status_code),
    attempts: attempts
      .filter((a) => a.delivery_id === delivery.id)
      .map(({ delivery_id: _, ...a }) => ({
        ...a,
        attempt_nr: Number(a.attempt_nr),
        status_code: a.status_code === null ? null : Number(a.status_code),
        duration_ms: Number(a.duration_ms),
      })),
  }));
}

/**
 * Makes deliveries due now with a fresh round of retries, keeping their `webhook-id` (the
 * event's) so a receiver that did get it can dedupe. Replaying is an explicit request to
 * send, so it also resumes a URL that answered 410 Gone. One transaction.
 */
export async function replayDeliveries(db: Db, target: ReplayTarget): Promise<string[]> {
  return db.transaction().execute(async (trx) => {
    const rows = 'ids' in target && target.ids.length === 0 ? [] : await selectReplayed(trx, target);
    if ('ids' in target) {
      const missing = target.ids.find((id) => !rows.some((row) => row.id === id));
      if (missing !== undefined) throw new UnknownDeliveryError(missing);
    }
    if (rows.length === 0) return [];
    await markDueAgain(
      trx,
      rows.map((row) => row.id),
      new Date().toISOString(),
    );
    const stoppedUrls = new Map(rows.map((row) => [JSON.stringify([row.distribution_id, row.url]), row]));
    for (const { distribution_id, url } of stoppedUrls.values()) await deleteStoppedUrls(trx, distribution_id, [url]);
    return rows.map((row) => row.id);
  });
}

/**
 * Sends one failed delivery of a lead again (the broker app's button): only when it is a
 * delivery of that lead in that distribution and it has failed; false otherwise.
 */
export async function replayFailedDelivery(
  db: Db,
  target: { distributionId: string; leadId: string; deliveryId: string },
): Promise<boolean> {
  const found = await findFailedDelivery(db, target);
  if (!found) return false;
  await replayDeliveries(db, { ids: [found.id] });
  return true;
}
