// References inside a push that only the stored data can settle (docs/design.md section 2):
// a policy_package_id or risk_object_id names an object in the same push or of the
// matched party; a client-chosen id or a policy's external ref must not belong to
// another party. Every such problem is reported at once. Pure: the database's answers
// come in `found` (push-candidates.repository.ts) and the matched party's aggregate.
import { ConflictError, ValidationError, type Problem } from '../../errors.ts';
import type { PushCandidates } from './push-candidates.repository.ts';
import { refKey, type LeadAggregate } from '../model/party.aggregate.ts';
import type { LeadPush } from './push.ts';

export function checkReferences(push: LeadPush, found: PushCandidates, stored: LeadAggregate | undefined): void {
  const partyId = stored?.partyId;
  const conflicts: Problem[] = [];
  const invalid: Problem[] = [];

  for (const object of push.riskObjects) {
    const owner = object.clientId === undefined ? undefined : found.riskObjectOwners.get(object.clientId);
    if (owner === undefined) continue;
    if (owner.partyId !== partyId) conflicts.push({ target: `${object.target}.id`, code: 'owned_elsewhere' });
    // The party's own object, but one a party update removed, or of the other kind (a
    // residence's id sent as a car's): it cannot be this object.
    else if (
      owner.removed ||
      !stored!.riskObjects.some((own) => own.id === object.clientId && own.type === object.type)
    ) {
      invalid.push({ target: `${object.target}.id`, code: 'invalid' });
    }
  }
  for (const pkg of push.packages) {
    const owner = pkg.clientId === undefined ? undefined : found.packageOwners.get(pkg.clientId);
    if (owner !== undefined && owner !== partyId)
      conflicts.push({ target: `${pkg.target}.id`, code: 'owned_elsewhere' });
  }

  const ownPolicies = new Set(stored?.policies.map((policy) => policy.id) ?? []);
  const ownersOf = new Map<string, string[]>();
  for (const owner of found.policyRefOwners)
    ownersOf.set(refKey(owner.ref), [...(ownersOf.get(refKey(owner.ref)) ?? []), owner.policyId]);
  for (const policy of push.policies) {
    const named = new Set<string>();
    for (const { value, target } of policy.refs) {
      for (const policyId of ownersOf.get(refKey(value)) ?? []) {
        if (!ownPolicies.has(policyId)) conflicts.push({ target, code: 'owned_elsewhere' });
        named.add(policyId);
      }
    }
    // One pushed policy whose refs name two different stored policies cannot be merged.
    if (named.size > 1) conflicts.push({ target: `${policy.target}.external_refs`, code: 'conflict_parties' });
  }
  if (conflicts.length > 0) throw new ConflictError(conflicts, push.subject);

  const knownPackages = new Set([
    ...push.packages.flatMap((pkg) => pkg.clientId ?? []),
    ...(stored?.packages.map((pkg) => pkg.id) ?? []),
  ]);
  const knownRiskObjects = new Set([
    ...push.riskObjects.flatMap((object) => object.clientId ?? []),
    ...(stored?.riskObjects.map((object) => object.id) ?? []),
  ]);
  for (const policy of push.policies) {
    if (typeof policy.packageId === 'string' && !knownPackages.has(policy.packageId)) {
      invalid.push({ target: `${policy.target}.policy_package_id`, code: 'unknown_reference' });
    }
    policy.coverages?.forEach((coverage, c) => {
      if (coverage.riskObjectId !== null && !knownRiskObjects.has(coverage.riskObjectId)) {
        invalid.push({ target: `${policy.target}.coverages.${c}.risk_object_id`, code: 'unknown_reference' });
      }
    });
  }
  if (invalid.length > 0) throw new ValidationError(invalid, push.subject);
}
