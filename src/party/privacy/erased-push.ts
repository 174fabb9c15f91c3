// A partner's automatic re-sync must not bring an erased person back (docs/design.md
// section 15): a push carrying an external ref of an erased party of the distribution is
// 409 Erased on that ref, and so is a `prospect.id` naming an erased party. Refs that a
// live party holds were never erased, so only the others are hashed and looked up.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import { ErasedError, type Problem } from '../../errors.ts';
import { findErasedParty, findErasedRefHashes } from './erasure.repository.ts';
import type { PushCandidates } from '../push/push-candidates.repository.ts';
import type { LeadPush } from '../push/push.ts';
import type { RefHasher } from './ref-hash.ts';

export async function refuseErased(
  db: Kysely<Database>,
  distributionId: string,
  push: LeadPush,
  found: PushCandidates,
  hash: RefHasher | undefined,
): Promise<void> {
  const problems: Problem[] = [];
  if (push.partyId !== undefined && found.party === undefined) {
    if (await findErasedParty(db, distributionId, push.partyId))
      problems.push({ target: 'prospect.id', code: 'erased' });
  }
  if (hash !== undefined) {
    const owned = (ref: { company: string; ref: string }) =>
      found.refOwners.some((owner) => owner.ref.company === ref.company && owner.ref.ref === ref.ref);
    const unowned = push.refs.filter((ref) => !owned(ref.value)).map((ref) => ({ ...ref, hash: hash(ref.value) }));
    const erased = await findErasedRefHashes(
      db,
      distributionId,
      unowned.map((ref) => ref.hash),
    );
    for (const ref of unowned) if (erased.has(ref.hash)) problems.push({ target: ref.target, code: 'erased_ref' });
  }
  if (problems.length > 0) throw new ErasedError(409, problems, push.subject);
}
