// What the operator sees and does from the CLI (`lead-intake webhook deliveries|replay`):
// deliveries with every attempt (status code, latency, error), and sending them again.
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import type { DeliveryStatus } from './webhook.table.ts';

type Db = Kysely<Database>;

export class UnknownDeliveryError extends Error {
  constructor(id: string) {
    super(`unknown webhook delivery ${JSON.stringify(id)}`);
    this.name = 'UnknownDeliveryError';
  }
}

export interface DeliveryFilter {
  readonly status?: DeliveryStatus;
  readonly leadId?: string;
  readonly distributionId?: string;
  readonly limit: number;
}

/** The newest deliveries matching the filter, each with its attempts, oldest attempt first. */
export async function listDeliveries(db: Db, filter: DeliveryFilter) {
  let query = db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
    .select([
      'd.id',
      'd.event_id',
      'e.type as event_type',
      'e.lead_id',
      'd.distribution_id',
      'd.url',
      'd.status',
      'd.next_attempt_at',
      'd.last_status_code',
      'd.last_error',
      'd.created_at',
      'd.updated_at',
    ])
    .orderBy('d.created_at', 'desc')
    .orderBy('d.id')
    .limit(filter.limit);
  if (filter.status) query = query.where('d.status', '=', filter.status);
  if (filter.leadId) query = query.where('e.lead_id', '=', filter.leadId);
  if (filter.distributionId) query = query.where('d.distribution_id', '=', filter.distributionId);
  const deliveries = await query.execute();
  const attempts =
    deliveries.length === 0
      ? []
      : await db
          .selectFrom('webhook_attempts')
          .select(['delivery_id', 'attempt_nr', 'started_at', 'outcome', 'status_code', 'duration_ms', 'error'])
          .where(
            'delivery_id',
            'in',
            deliveries.map((d) => d.id),
          )
          .orderBy('attempt_nr')
          .execute();
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
export async function replayDeliveries(
  db: Db,
  target: { ids: readonly string[] } | { allFailed: true; distributionId?: string },
): Promise<string[]> {
  return db.transaction().execute(async (trx) => {
    let query = trx.selectFrom('webhook_deliveries').select(['id', 'distribution_id', 'url']);
    if ('ids' in target) query = query.where('id', 'in', target.ids);
    else {
      query = query.where('status', '=', 'failed');
      if (target.distributionId) query = query.where('distribution_id', '=', target.distributionId);
    }
    const rows = 'ids' in target && target.ids.length === 0 ? [] : await query.execute();
    if ('ids' in target) {
      const missing = target.ids.find((id) => !rows.some((row) => row.id === id));
      if (missing !== undefined) throw new UnknownDeliveryError(missing);
    }
    if (rows.length === 0) return [];
    const now = new Date().toISOString();
    await trx
      .updateTable('webhook_deliveries')
      .set((eb) => ({
        status: 'pending',
        next_attempt_at: now,
        claim_id: null,
        round_start: eb.ref('attempts'),
        updated_at: now,
      }))
      .where(
        'id',
        'in',
        rows.map((row) => row.id),
      )
      .execute();
    const stoppedUrls = new Map(rows.map((row) => [JSON.stringify([row.distribution_id, row.url]), row]));
    for (const { distribution_id, url } of stoppedUrls.values()) {
      await trx
        .deleteFrom('webhook_stopped_urls')
        .where('distribution_id', '=', distribution_id)
        .where('url', '=', url)
        .execute();
    }
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
  const found = await db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
    .select('d.id')
    .where('d.id', '=', target.deliveryId)
    .where('d.distribution_id', '=', target.distributionId)
    .where('e.lead_id', '=', target.leadId)
    .where('d.status', '=', 'failed')
    .executeTakeFirst();
  if (!found) return false;
  await replayDeliveries(db, { ids: [found.id] });
  return true;
}
