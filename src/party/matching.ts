// Which stored party a push is about: docs/design.md section 2, "Matching and merge", rules 1
// to 5. Every rule is evaluated; rules that hit two different parties are a conflict.
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import { ConflictError, ValidationError, type Problem } from '../errors.ts';
import type { LeadBody } from './lead.schema.ts';
import type { PartyType } from './party.table.ts';
import { customerMatchKey } from './merge.ts';
import { prospectRefsWithTargets } from './push.ts';
import { findPartyByMatchKey, findPartyIdsByRefs, findPartyKind } from './repository.ts';
import type { Fields, LeadAggregate } from './party.aggregate.ts';

/** The matched party id, or undefined for a new lead. Throws 409 / 422 per rules 4 and 5. */
export async function matchParty(
  db: Kysely<Database>,
  distributionId: string,
  kind: PartyType,
  body: LeadBody,
  subject: string,
): Promise<string | undefined> {
  const hits: Array<{ partyId: string; target: string }> = [];
  const prospect = body.prospect;

  if (prospect.id !== undefined) {
    const found = await findPartyKind(db, distributionId, prospect.id);
    // Rule 5: an id that names no party (of this kind) in this distribution.
    if (found !== kind) throw new ValidationError([{ target: 'prospect.id', code: 'unknown_reference' }], subject);
    hits.push({ partyId: prospect.id, target: 'prospect.id' });
  }

  const refs = prospectRefsWithTargets(prospect);
  const byRef = await findPartyIdsByRefs(db, distributionId, 'party', refs.map((r) => r.ref));
  for (const row of byRef) {
    for (const entry of refs) {
      if (entry.ref.company === row.company && entry.ref.ref === row.ref) hits.push({ partyId: row.entity_id, target: entry.target });
    }
  }

  if (kind === 'CUSTOMER') {
    const key = customerMatchKey(prospect as Fields);
    const partyId = key === null ? undefined : await findPartyByMatchKey(db, distributionId, key);
    if (partyId !== undefined) hits.push({ partyId, target: 'prospect.email' });
  }

  const parties = new Set(hits.map((hit) => hit.partyId));
  if (parties.size > 1) throw new ConflictError(conflictProblems(hits), subject);
  const [partyId] = parties;
  if (partyId !== undefined && prospect.id === undefined) {
    // A reference owned by a party of the other kind (a company's ref pushed as a customer).
    const found = await findPartyKind(db, distributionId, partyId);
    if (found !== kind) throw new ConflictError(conflictProblems(hits), subject);
  }
  return partyId;
}

/**
 * Rule 4 after a merge or a patch: the party's email + birth + address may now equal
 * another party's, which would be two parties matching one push. Returns the match key to
 * store. `knownKey` needs no second look: the party's stored key, or the one matching just
 * found free in this transaction (a concurrent writer taking it meanwhile is stopped by
 * the unique index `parties_match_key`, and the retry finds its party: rule 10).
 */
export async function checkMatchKey(
  db: Kysely<Database>,
  lead: LeadAggregate,
  knownKey: string | null,
  conflict: { target: string; subject: string },
): Promise<string | null> {
  const matchKey = lead.type === 'CUSTOMER' ? customerMatchKey(lead.fields) : null;
  if (matchKey === null || matchKey === knownKey) return matchKey;
  const owner = await findPartyByMatchKey(db, lead.distributionId, matchKey);
  if (owner !== undefined && owner !== lead.partyId) throw new ConflictError([{ target: conflict.target, code: 'conflict_parties' }], conflict.subject);
  return matchKey;
}

function conflictProblems(hits: ReadonlyArray<{ target: string }>): Problem[] {
  const targets = [...new Set(hits.map((hit) => hit.target))];
  return targets.map((target) => ({ target, code: 'conflict_parties' as const }));
}
