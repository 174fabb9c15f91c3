// The SQL of retention (docs/design.md section 15): small batches of what is older than its
// period, found through indexes on their time, and the lease that lets one process at a
// time run a pass. Every function takes the transaction (or the database) first.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import { keepCreatedSources } from '../stats/source-counts.repository.ts';

type Db = Kysely<Database>;

/**
 * Deletes up to `limit` of the distribution's push-log entries received before `cutoff`; how
 * many. Found through `lead_pushes_period`, the index the period's statistics read too (a
 * push writes no index of its time alone). A lead whose creating push goes keeps where it
 * came from (keepCreatedSources), for its counts.
 */
export async function deleteOldPushes(db: Db, distributionId: string, cutoff: string, limit: number): Promise<number> {
  const pushes = await oldPushesQuery(db, distributionId, cutoff, limit).execute();
  if (pushes.length === 0) return 0;
  const ids = pushes.map((push) => push.id);
  await keepCreatedSources(db, ids);
  const result = await db.deleteFrom('lead_pushes').where('id', 'in', ids).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The distribution's first `limit` push-log entries received before `cutoff` (its plan is tested). */
export function oldPushesQuery(db: Db, distributionId: string, cutoff: string, limit: number) {
  return db
    .selectFrom('lead_pushes')
    .select('id')
    .where('distribution_id', '=', distributionId)
    .where('received_at', '<', cutoff)
    .orderBy('received_at')
    .limit(limit);
}

/**
 * Deletes up to `limit` webhook events created before `cutoff` that no delivery still
 * waits to send, with their deliveries and attempts; the rows deleted per table.
 */
export async function deleteOldEvents(
  db: Db,
  cutoff: string,
  limit: number,
): Promise<{ events: number; deliveries: number; attempts: number }> {
  const rows = await db
    .selectFrom('webhook_events as e')
    .select('e.id')
    .where('e.created_at', '<', cutoff)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('webhook_deliveries as d')
            .select('d.id')
            .whereRef('d.event_id', '=', 'e.id')
            .where('d.status', '=', 'pending'),
        ),
      ),
    )
    .orderBy('e.created_at')
    .limit(limit)
    .execute();
  const ids = rows.map((row) => row.id);
  if (ids.length === 0) return { events: 0, deliveries: 0, attempts: 0 };
  const deliveries = db.selectFrom('webhook_deliveries').select('id').where('event_id', 'in', ids);
  const attempts = await db.deleteFrom('webhook_attempts').where('delivery_id', 'in', deliveries).executeTakeFirst();
  const removed = await db.deleteFrom('webhook_deliveries').where('event_id', 'in', ids).executeTakeFirst();
  const events = await db.deleteFrom('webhook_events').where('id', 'in', ids).executeTakeFirst();
  return {
    events: Number(events.numDeletedRows),
    deliveries: Number(removed.numDeletedRows),
    attempts: Number(attempts.numDeletedRows),
  };
}

export async function listDistributionIds(db: Db): Promise<string[]> {
  return (await db.selectFrom('distributions').select('id').orderBy('id').execute()).map((row) => row.id);
}

/**
 * Up to `limit` parties of the distribution whose lead is unchanged since before `cutoff`.
 * A lead changes with a push, a PATCH of it or its party, a status or assignee change (each
 * moves `updated_at`) and with a broker's note, which does not (docs/design.md section 14: a
 * lead being worked is never erased as unchanged); each is found through its (lead_id, time) index.
 */
export async function findStaleParties(db: Db, distributionId: string, cutoff: string, limit: number) {
  const rows = await db
    .selectFrom('leads')
    .select('party_id')
    .where('distribution_id', '=', distributionId)
    .where('updated_at', '<', cutoff)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('lead_notes')
            .select('lead_notes.id')
            .whereRef('lead_notes.lead_id', '=', 'leads.id')
            .where('lead_notes.created_at', '>=', cutoff),
        ),
      ),
    )
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('lead_changes')
            .select('lead_changes.id')
            .whereRef('lead_changes.lead_id', '=', 'leads.id')
            .where('lead_changes.changed_at', '>=', cutoff),
        ),
      ),
    )
    .orderBy('updated_at')
    .limit(limit)
    .execute();
  return rows.map((row) => row.party_id);
}

/** When the party's lead last changed, its notes and work included (undefined: no such lead any more). */
export async function findLeadLastChange(db: Db, partyId: string): Promise<string | undefined> {
  const lead = await db
    .selectFrom('leads')
    .select(['id', 'updated_at'])
    .where('party_id', '=', partyId)
    .executeTakeFirst();
  if (lead === undefined) return undefined;
  // One after the other: they share the transaction's connection.
  const note = await db
    .selectFrom('lead_notes')
    .select('created_at')
    .where('lead_id', '=', lead.id)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  const change = await db
    .selectFrom('lead_changes')
    .select('changed_at')
    .where('lead_id', '=', lead.id)
    .orderBy('changed_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return [lead.updated_at, note?.created_at, change?.changed_at].reduce<string>(
    (latest, at) => (at !== undefined && at > latest ? at : latest),
    lead.updated_at,
  );
}

/**
 * Takes the lease `name` for `holder` until `until`, when it is free or has run out;
 * true when taken. A holder that died loses it when it runs out.
 */
export async function takeLease(db: Db, name: string, holder: string, now: string, until: string): Promise<boolean> {
  const result = await db
    .insertInto('background_leases')
    .values({ name, holder, expires_at: until })
    .onConflict((conflict) =>
      conflict
        .column('name')
        .doUpdateSet({ holder, expires_at: until })
        .where((eb) =>
          eb.or([eb('background_leases.expires_at', '<', now), eb('background_leases.holder', '=', holder)]),
        ),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
}

export async function releaseLease(db: Db, name: string, holder: string): Promise<void> {
  await db.deleteFrom('background_leases').where('name', '=', name).where('holder', '=', holder).execute();
}
