// The SQL of what an erasure leaves behind (docs/design.md section 15): the tombstone of a
// party and its leads, the keyed hashes of its external refs, the erasure key itself, and
// the audit log. Every function takes the transaction (or the database) first.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { Position } from '../../http/pagination.ts';
import type { AuditAction } from './personal-data.table.ts';

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

export async function findErasedParty(db: Db, distributionId: string, partyId: string) {
  return db
    .selectFrom('erased_parties')
    .select(['party_id', 'erased_at'])
    .where('distribution_id', '=', distributionId)
    .where('party_id', '=', partyId)
    .executeTakeFirst();
}

export async function findErasedLead(db: Db, distributionId: string, leadId: string) {
  return db
    .selectFrom('erased_leads')
    .select(['lead_id', 'erased_at'])
    .where('distribution_id', '=', distributionId)
    .where('lead_id', '=', leadId)
    .executeTakeFirst();
}

/** Which of these ref hashes belong to an erased party of the distribution. */
export async function findErasedRefHashes(
  db: Db,
  distributionId: string,
  hashes: readonly string[],
): Promise<Set<string>> {
  if (hashes.length === 0) return new Set();
  const rows = await db
    .selectFrom('erased_refs')
    .select('ref_hash')
    .where('distribution_id', '=', distributionId)
    .where('ref_hash', 'in', [...hashes])
    .execute();
  return new Set(rows.map((row) => row.ref_hash));
}

/** Erased leads in the change listing's (updated_at, id) order, one more than `limit`. */
export async function listErasedLeads(
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
  if (query.after) {
    const { at, id } = query.after;
    select = select.where((eb) =>
      eb.or([eb('erased_at', '>', at), eb.and([eb('erased_at', '=', at), eb('lead_id', '>', id)])]),
    );
  }
  return select
    .orderBy('erased_at')
    .orderBy('lead_id')
    .limit(query.limit + 1)
    .execute();
}

export async function insertSecretIfAbsent(db: Db, name: string, value: string, at: string): Promise<void> {
  await db
    .insertInto('personal_data_secrets')
    .values({ name, value, created_at: at })
    .onConflict((conflict) => conflict.column('name').doNothing())
    .execute();
}

export async function readSecret(db: Db, name: string): Promise<string> {
  const row = await db
    .selectFrom('personal_data_secrets')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return row.value;
}

export async function insertAudit(
  db: Db,
  entry: { id: string; at: string; action: AuditAction; distributionId: string; partyId: string; actor: string },
): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      id: entry.id,
      at: entry.at,
      action: entry.action,
      distribution_id: entry.distributionId,
      party_id: entry.partyId,
      actor: entry.actor,
    })
    .execute();
}

export async function listAudit(db: Db, filter: { distributionId?: string; limit: number }) {
  let select = db.selectFrom('audit_log').selectAll();
  if (filter.distributionId) select = select.where('distribution_id', '=', filter.distributionId);
  return select.orderBy('at', 'desc').orderBy('id', 'desc').limit(filter.limit).execute();
}
