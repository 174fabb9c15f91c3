// Which stored party a push is about: docs/design.md section 2, "Matching and merge", rules 1
// to 5. Every rule is evaluated on what the database said about the push's keys
// (push-candidates.repository.ts, one statement); rules that hit two different parties are a conflict.
import { ConflictError, ValidationError, type Problem } from '../../errors.ts';
import type { PushCandidates } from './push-candidates.repository.ts';
import { refKey } from '../model/party.aggregate.ts';
import type { LeadPush } from './push.ts';

/** The matched party id, or undefined for a new lead. Throws 409 / 422 per rules 4 and 5. */
export function matchParty(push: LeadPush, found: PushCandidates): string | undefined {
  const hits: Array<{ partyId: string; kind: string; target: string }> = [];

  if (push.partyId !== undefined) {
    // Rule 5: an id that names no party (of this kind) in this distribution.
    if (found.party?.kind !== push.kind)
      throw new ValidationError([{ target: 'prospect.id', code: 'unknown_reference' }], push.subject);
    hits.push({ partyId: found.party.id, kind: found.party.kind, target: 'prospect.id' });
  }
  for (const owner of found.refOwners) {
    for (const entry of push.refs) {
      if (refKey(entry.value) === refKey(owner.ref))
        hits.push({ partyId: owner.partyId, kind: owner.kind, target: entry.target });
    }
  }
  if (found.matchKeyOwner) hits.push({ ...found.matchKeyOwner, target: 'prospect.email' });

  const parties = new Set(hits.map((hit) => hit.partyId));
  // Rule 4; and a reference owned by a party of the other kind (a company's ref pushed as a customer).
  if (parties.size > 1 || hits.some((hit) => hit.kind !== push.kind))
    throw new ConflictError(conflictProblems(hits), push.subject);
  return hits[0]?.partyId;
}

/**
 * Rule 4 after a merge or a patch: the party's email + birth + address may now equal
 * another party's, which would be two parties matching one push. `owner` is the party
 * holding the merged key (looked up only when the key is one matching has not seen).
 */
export function matchKeyConflict(
  partyId: string,
  owner: string | undefined,
  conflict: { target: string; subject: string },
): void {
  if (owner !== undefined && owner !== partyId)
    throw new ConflictError([{ target: conflict.target, code: 'conflict_parties' }], conflict.subject);
}

function conflictProblems(hits: ReadonlyArray<{ target: string }>): Problem[] {
  const targets = [...new Set(hits.map((hit) => hit.target))];
  return targets.map((target) => ({ target, code: 'conflict_parties' as const }));
}
