// The SQL of the tombstones an erasure leaves (docs/design.md section 15): the erased
// party, its leads and the keyed hashes of its external refs, which tell a later read
// (410) and a later push (409) that the person was erased, and put the erased leads in
// the change listing. Every function takes the transaction (or the database) first.
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import { pastPosition, type Position } from '../../db/keyset.ts';
import { findMergedLead, findMergedParty } from '../party-merge/merged-parties.repository.ts';

type Db = Kysely<Database>;

export interface Tombstone {
  readonly distributionId: string;
  readonly partyId: string;
  readonly leadIds: readonly string[];
  readonly erasedAt: string;
  readonly erasedBy: string;
  readonly refHashes: readonly string[];
}

export async function insertTombstone(db: Db, tombstone: Tombstone): Promise<void> {
  const { distributionId, partyId, erasedAt } = tombstone;
  await db
    .insertInto('erased_parties')
    .values({ party_id: partyId, distribution_id: distributionId, erased_at: erasedAt, erased_by: tombstone.erasedBy })
    .execute();
  if (tombstone.leadIds.length > 0)
    await db
      .insertInto('erased_leads')
      .values(
        tombstone.leadIds.map((id) => ({
          lead_id: id,
          party_id: partyId,
          distribution_id: distributionId,
          erased_at: erasedAt,
        })),
      )
      .execute();
  if (tombstone.refHashes.length > 0)
    await db
      .insertInto('erased_refs')
      .values(
        tombstone.refHashes.map((hash) => ({ distribution_id: distributionId, ref_hash: hash, party_id: partyId })),
      )
      .onConflict((conflict) => conflict.columns(['distribution_id', 'ref_hash']).doNothing())
      .execute();
}

/**
 * What is left of a party that is gone: its tombstone, or, for a party merged into another
 * (docs/api.md, "Merging two parties"), the survivor's ids; undefined for an id never known.
 */
export async function findErasedParty(db: Db, distributionId: string, partyId: string) {
  const erased = await db
    .selectFrom('erased_parties')
    .select(['party_id', 'erased_at'])
    .where('distribution_id', '=', distributionId)
    .where('party_id', '=', partyId)
    .executeTakeFirst();
  if (erased !== undefined) return erased;
  const into = await findMergedParty(db, distributionId, partyId);
  return into && { merged_into: into };
}

/** What is left of a lead that is gone: its tombstone, or the survivor's ids of a merged one. */
export async function findErasedLead(db: Db, distributionId: string, leadId: string) {
  const erased = await db
    .selectFrom('erased_leads')
    .select(['lead_id', 'erased_at'])
    .where('distribution_id', '=', distributionId)
    .where('lead_id', '=', leadId)
    .executeTakeFirst();
  if (erased !== undefined) return erased;
  const into = await findMergedLead(db, distributionId, leadId);
  return into && { merged_into: into };
}

/** Erased leads in the change listing's (updated_at, id) order, one more than `limit` (unrun: lead-read.repository.ts runs it with the others). */
export function erasedLeadsQuery(
  db: Db,
  query: {
    distributionId: string;
    /** Only the leads of the party that had this ref (its keyed hash). */
    refHash?: string;
    updatedSince?: string;
    after?: Position;
    before?: string;
    limit: number;
  },
) {
  let select = db
    .selectFrom('erased_leads')
    .select(['lead_id', 'party_id', 'erased_at'])
    .where('distribution_id', '=', query.distributionId);
  if (query.refHash !== undefined)
    select = select.where(
      'party_id',
      'in',
      db
        .selectFrom('erased_refs')
        .select('party_id')
        .where('distribution_id', '=', query.distributionId)
        .where('ref_hash', '=', query.refHash),
    );
  if (query.before !== undefined) select = select.where('erased_at', '<', query.before);
  if (query.updatedSince) select = select.where('erased_at', '>=', query.updatedSince);
  if (query.after) select = select.where(pastPosition(sql.ref('erased_at'), sql.ref('lead_id'), 'asc', query.after));
  return select
    .orderBy('erased_at')
    .orderBy('lead_id')
    .limit(query.limit + 1);
}
