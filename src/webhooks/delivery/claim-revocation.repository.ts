// The SQL of claims an erasure takes back (docs/design.md section 14): a delivery about the
// erased person that a worker had claimed may be waiting in that worker's queue or on its way
// to the receiver. The erasure remembers each such claim (ids and the lease, nothing about
// the person) in its transaction; the worker forgets it once it is done with the delivery
// (sent and answered, or dropped unsent); the erasure answers once all of its are forgotten.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';

type Db = Kysely<Database>;

export interface RevokedClaim {
  readonly delivery_id: string;
  readonly claim_id: string;
  /** The claim's lease: no worker sends on it after that. */
  readonly until: string;
}

/**
 * Remembers every claim on the deliveries of the lead's events: call it in the erasure's
 * transaction, before its rows are deleted. Every delivery row of the lead is written (to
 * itself), claimed or not: on PostgreSQL that waits for a worker claiming or recording one of
 * them right now and returns the row as that worker committed it (a condition on claim_id
 * would be judged on the row as it was before, and miss a claim committed meanwhile); a claim
 * begun later skips the locked rows and then finds them deleted.
 */
export async function revokeClaimsOfLead(db: Db, leadId: string): Promise<RevokedClaim[]> {
  const rows = await db
    .updateTable('webhook_deliveries')
    .set((eb) => ({ claim_id: eb.ref('claim_id') }))
    .where('event_id', 'in', db.selectFrom('webhook_events').select('id').where('lead_id', '=', leadId))
    .returning(['id', 'claim_id', 'next_attempt_at'])
    .execute();
  const revoked = rows
    .filter((row) => row.claim_id !== null)
    .map((row) => ({
      delivery_id: row.id,
      claim_id: row.claim_id!,
      // A claimed delivery's next attempt is its lease's end (delivery.repository.ts).
      until: row.next_attempt_at ?? '',
    }));
  if (revoked.length > 0) await db.insertInto('webhook_revoked_claims').values(revoked).execute();
  return revoked;
}

/** Which of these claims (held by a worker) an erasure took back: `claimKey`s. */
export async function revokedAmong(
  db: Db,
  claims: ReadonlyArray<{ id: string; claim_id: string }>,
): Promise<Set<string>> {
  if (claims.length === 0) return new Set();
  const rows = await db
    .selectFrom('webhook_revoked_claims')
    .select(['delivery_id', 'claim_id'])
    .where('claim_id', 'in', [...new Set(claims.map((c) => c.claim_id))])
    .execute();
  return new Set(rows.map((row) => claimKey(row.delivery_id, row.claim_id)));
}

/** The worker is done with a revoked claim: its delivery will not be sent (again). */
export async function forgetRevokedClaim(db: Db, claim: { id: string; claim_id: string }): Promise<void> {
  await db
    .deleteFrom('webhook_revoked_claims')
    .where('claim_id', '=', claim.claim_id)
    .where('delivery_id', '=', claim.id)
    .execute();
}

/** Those of these revoked claims that a worker has not forgotten yet. */
export async function unsettledClaims(db: Db, revoked: readonly RevokedClaim[]): Promise<RevokedClaim[]> {
  if (revoked.length === 0) return [];
  const rows = await db
    .selectFrom('webhook_revoked_claims')
    .select(['delivery_id', 'claim_id', 'until'])
    .where('claim_id', 'in', [...new Set(revoked.map((c) => c.claim_id))])
    .execute();
  const wanted = new Set(revoked.map((c) => claimKey(c.delivery_id, c.claim_id)));
  return rows.filter((row) => wanted.has(claimKey(row.delivery_id, row.claim_id)));
}

/** Forgets revoked claims whose lease ended without word from their worker (it died). */
export async function forgetRevokedClaims(db: Db, revoked: readonly RevokedClaim[]): Promise<void> {
  for (const claim of revoked) await forgetRevokedClaim(db, { id: claim.delivery_id, claim_id: claim.claim_id });
}

export const claimKey = (deliveryId: string, claimId: string) => `${deliveryId} ${claimId}`;
