// The record of parties merged into another (docs/api.md, "Merging two parties"): written by
// the merge, read when a merged party or lead is asked for (410 `Merged` with the survivor's
// ids) and when a push names a merged party's id (it reaches the survivor).
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import { pastPosition, type Position } from '../../db/keyset.ts';
import type { MergedPartyTable } from './merged-party.table.ts';

type Db = Kysely<Database>;

export interface MergedInto {
  readonly party_id: string;
  readonly lead_id: string;
}

export async function findMergedParty(
  db: Db,
  distributionId: string,
  partyId: string,
): Promise<MergedInto | undefined> {
  const row = await db
    .selectFrom('merged_parties')
    .select(['merged_into_party_id', 'merged_into_lead_id'])
    .where('party_id', '=', partyId)
    .where('distribution_id', '=', distributionId)
    .executeTakeFirst();
  return row && { party_id: row.merged_into_party_id, lead_id: row.merged_into_lead_id };
}

export async function findMergedLead(db: Db, distributionId: string, leadId: string): Promise<MergedInto | undefined> {
  const row = await db
    .selectFrom('merged_parties')
    .select(['merged_into_party_id', 'merged_into_lead_id'])
    .where('lead_id', '=', leadId)
    .where('distribution_id', '=', distributionId)
    .executeTakeFirst();
  return row && { party_id: row.merged_into_party_id, lead_id: row.merged_into_lead_id };
}

/**
 * Records `merged` as merged into its survivor, and moves the parties merged into `merged`
 * before along to the survivor, so every merged id names a live party in one step.
 */
export async function recordMerge(db: Db, merged: MergedPartyTable): Promise<void> {
  await db
    .updateTable('merged_parties')
    .set({ merged_into_party_id: merged.merged_into_party_id, merged_into_lead_id: merged.merged_into_lead_id })
    .where('merged_into_party_id', '=', merged.party_id)
    .execute();
  await db.insertInto('merged_parties').values(merged).execute();
}

/**
 * Merged leads in the change listing's (updated_at, id) order, one more than `limit`: each
 * once, at the time it was merged, so a syncing partner drops its copy (docs/api.md, "Merging
 * two parties"). Unrun: lead-read.repository.ts runs it with the listing's other rows.
 */
export function mergedLeadsQuery(
  db: Db,
  query: { distributionId: string; updatedSince?: string; after?: Position; before?: string; limit: number },
) {
  let select = db
    .selectFrom('merged_parties')
    .select(['lead_id', 'party_id', 'merged_at', 'merged_into_party_id', 'merged_into_lead_id'])
    .where('distribution_id', '=', query.distributionId);
  if (query.before !== undefined) select = select.where('merged_at', '<', query.before);
  if (query.updatedSince) select = select.where('merged_at', '>=', query.updatedSince);
  if (query.after) select = select.where(pastPosition(sql.ref('merged_at'), sql.ref('lead_id'), 'asc', query.after));
  return select
    .orderBy('merged_at')
    .orderBy('lead_id')
    .limit(query.limit + 1);
}
