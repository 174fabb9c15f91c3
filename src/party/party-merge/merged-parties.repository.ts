// The record of parties merged into another (docs/api.md, "Merging two parties"): written by
// the merge, read when a merged party or lead is asked for (410 `Merged` with the survivor's
// ids) and when a push names a merged party's id (it reaches the survivor).
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
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
