// A partner's automatic re-sync must not bring an erased person back (docs/design.md
// section 15): a push carrying an external ref of an erased party of the distribution is
// 409 Erased on that ref, and so is a `prospect.id` naming an erased party. Pure: the push's
// lookup (push-candidates.repository.ts) asks the tombstones, in its own statement, what
// this says to ask, and the answer counts only for refs no live party holds (those were
// never erased) and a party id no live party has.
import { ErasedError, type Problem } from '../../errors.ts';
import type { PushCandidates } from './push-candidates.repository.ts';
import type { LeadPush } from './push.ts';
import type { RefHasher } from '../privacy/ref-hash.ts';
import type { ExternalRef } from '../model/party.aggregate.ts';

/** What to ask the tombstones about a push, before anything is looked up: its party id and its refs' hashes. */
export interface ErasureQuestions {
  readonly partyId: string | undefined;
  /** Each ref of the prospect, hashed, with where it is in the push. */
  readonly refs: readonly { readonly target: string; readonly ref: ExternalRef; readonly hash: string }[];
}

/** `hash` undefined: the push has no refs (the key is not even loaded for it). */
export function erasureQuestions(push: LeadPush, hash: RefHasher | undefined): ErasureQuestions {
  const refs =
    hash === undefined ? [] : push.refs.map((ref) => ({ target: ref.target, ref: ref.value, hash: hash(ref.value) }));
  return { partyId: push.partyId, refs };
}

/** 409 Erased on every part of the push that names an erased person; nothing when none does. */
export function refuseErased(push: LeadPush, questions: ErasureQuestions, found: PushCandidates): void {
  const problems: Problem[] = [];
  if (questions.partyId !== undefined && found.party === undefined && found.erasedParty)
    problems.push({ target: 'prospect.id', code: 'erased' });
  const owned = (ref: ExternalRef) =>
    found.refOwners.some((owner) => owner.ref.company === ref.company && owner.ref.ref === ref.ref);
  for (const ref of questions.refs)
    if (found.erasedRefHashes.has(ref.hash) && !owned(ref.ref))
      problems.push({ target: ref.target, code: 'erased_ref' });
  if (problems.length > 0) throw new ErasedError(409, problems, push.subject);
}
