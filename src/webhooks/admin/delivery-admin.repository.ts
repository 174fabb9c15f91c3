// The SQL behind what the operator and the broker app see of deliveries and do with them
// (delivery-admin.service.ts): deliveries with their attempts, and making them due again.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DeliveryStatus } from '../webhook.table.ts';
import { FINAL_OUTCOMES } from './replayable.ts';

type Db = Kysely<Database>;

export interface DeliveryFilter {
  readonly status?: DeliveryStatus;
  readonly leadId?: string;
  readonly distributionId?: string;
  readonly limit: number;
}

/** The newest deliveries matching the filter, with their event's type and lead. */
export async function selectDeliveries(db: Db, filter: DeliveryFilter) {
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
  return query.execute();
}

/** The attempts of these deliveries, oldest first. */
export async function selectAttempts(db: Db, deliveryIds: readonly string[]) {
  return db
    .selectFrom('webhook_attempts')
    .select(['delivery_id', 'attempt_nr', 'started_at', 'outcome', 'status_code', 'duration_ms', 'error'])
    .where('delivery_id', 'in', deliveryIds)
    .orderBy('attempt_nr')
    .execute();
}

export type ReplayTarget = { ids: readonly string[] } | { allFailed: true; distributionId?: string };

/**
 * The deliveries a replay names: by id, or every failed one (of one distribution). Never a
 * `lead.erased` one: once done it no longer holds the callback URL it went to (docs/design.md
 * section 14), and the person it was about is gone.
 */
export async function selectReplayed(
  db: Db,
  target: ReplayTarget,
): Promise<Array<{ id: string; distribution_id: string; url: string }>> {
  let query = db
    .selectFrom('webhook_deliveries')
    .select(['id', 'distribution_id', 'url'])
    .where('event_id', 'not in', db.selectFrom('webhook_events').select('id').where('type', '=', 'lead.erased'));
  if ('ids' in target) query = query.where('id', 'in', target.ids);
  else {
    query = query.where('status', '=', 'failed');
    if (target.distributionId) query = query.where('distribution_id', '=', target.distributionId);
  }
  return query.execute();
}

/** Due at `now`, unclaimed, with a fresh round of retries counted from the attempts so far. */
export async function markDueAgain(db: Db, ids: readonly string[], now: string): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set((eb) => ({
      status: 'pending',
      next_attempt_at: now,
      claim_id: null,
      round_start: eb.ref('attempts'),
      updated_at: now,
    }))
    .where('id', 'in', ids)
    .execute();
}

/**
 * The delivery, when it is a failed delivery of that lead in that distribution that can
 * succeed again (its last attempt's outcome is not final: replayable.ts).
 */
export async function findFailedDelivery(
  db: Db,
  target: { distributionId: string; leadId: string; deliveryId: string },
): Promise<{ id: string } | undefined> {
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
    .select('d.id')
    .where('d.id', '=', target.deliveryId)
    .where('d.distribution_id', '=', target.distributionId)
    .where('e.lead_id', '=', target.leadId)
    .where('d.status', '=', 'failed')
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('webhook_attempts as a')
            .select('a.id')
            .where('a.delivery_id', '=', target.deliveryId)
            .where('a.outcome', 'in', FINAL_OUTCOMES)
            .where('a.attempt_nr', '=', (eb) =>
              eb
                .selectFrom('webhook_attempts as l')
                .select((l) => l.fn.max('l.attempt_nr').as('last'))
                .where('l.delivery_id', '=', target.deliveryId),
            ),
        ),
      ),
    )
    .executeTakeFirst();
}
