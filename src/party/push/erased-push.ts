// A partner's automatic re-sync must not bring an erased person back (docs/design.md
// section 15): a push carrying an external ref of an erased party of the distribution is
// 409 Erased on that ref, and so is a `prospect.id` naming an erased party. Refs that a
// live party holds were never erased, so only the others are hashed and looked up. Pure:
// the push's use case asks the tombstones (privacy/tombstone.repository.ts) what this says
// to ask.
import { ErasedError, type Problem } from '../../errors.ts';
import type { PushCandidates } from './push-candidates.repository.ts';
import type { LeadPush } from './push.ts';
import type { RefHasher } from '../privacy/ref-hash.ts';

/** What to ask the tombstones about a push: a party id no live party has, and the hashes of refs no live party holds. */
export interface ErasureQuestions {
  readonly partyId: string | undefined;
  /** Each ref no live party holds, hashed, with where it is in the push. */
  readonly refs: readonly { readonly target: string; readonly hash: string }[];
}

/** `hash` undefined: the push has no refs (the key is not even loaded for it). */
export function erasureQuestions(push: LeadPush, found: PushCandidates, hash: RefHasher | undefined): ErasureQuestions {
  const partyId = push.partyId !== undefined && found.party === undefined ? push.partyId : undefined;
  if (hash === undefined) return { partyId, refs: [] };
  const owned = (ref: { company: string; ref: string }) =>
    found.refOwners.some((owner) => owner.ref.company === ref.company && owner.ref.ref === ref.ref);
  const refs = push.refs
    .filter((ref) => !owned(ref.value))
    .map((ref) => ({ target: ref.target, hash: hash(ref.value) }));
  return { partyId, refs };
}

/** 409 Erased on every part of the push that names an erased person; nothing when none does. */
export function refuseErased(
  push: LeadPush,
  questions: ErasureQuestions,
  answers: { readonly partyErased: boolean; readonly erasedRefHashes: ReadonlySet<string> },
): void {
  const problems: Problem[] = [];
  if (answers.partyErased) problems.push({ target: 'prospect.id', code: 'erased' });
  for (const ref of questions.refs)
    if (answers.erasedRefHashes.has(ref.hash)) problems.push({ target: ref.target, code: 'erased_ref' });
  if (problems.length > 0) throw new ErasedError(409, problems, push.subject);
}
