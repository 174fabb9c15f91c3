// A risk object or package id that a merge of two parties gave up names the survivor's object
// that stands for it (docs/api.md, "Merging two parties": one car per VIN, one home per
// address, one package per insurance company and package number), so the merged party's
// partner, re-syncing with its own ids, lands where the broker joined the person instead of
// being refused. Pure: the push's lookup (push-candidates.repository.ts) tells which ids were
// given up, and for which object.
import type { PushCandidates } from './push-candidates.repository.ts';
import type { LeadPush } from './push.ts';

/**
 * The push with each given-up id (objects and the coverages pointing at them, packages and
 * the policies naming them) as the survivor's object's.
 */
export function withReplacedIds(push: LeadPush, found: PushCandidates): { push: LeadPush; found: PushCandidates } {
  const replaced = new Map<string, string>();
  for (const [id, owner] of found.riskObjectOwners)
    if (owner.removed && owner.replacedBy !== undefined) replaced.set(id, owner.replacedBy);
  const packages = found.packageReplacements;
  if (replaced.size === 0 && packages.size === 0) return { push, found };
  const owners = new Map(found.riskObjectOwners);
  // The survivor's object is the given-up one's party's: a merge moved both there.
  for (const [id, into] of replaced) owners.set(into, { partyId: owners.get(id)!.partyId, removed: false });
  const packageOwners = new Map(found.packageOwners);
  for (const [id, into] of packages) packageOwners.set(into, packageOwners.get(id)!);
  const named = (id: string | undefined) => (id === undefined ? id : (replaced.get(id) ?? id));
  const namedPackage = <T extends string | null | undefined>(id: T) =>
    (typeof id === 'string' ? (packages.get(id) ?? id) : id) as T;
  return {
    push: {
      ...push,
      riskObjects: push.riskObjects.map((object) => ({ ...object, clientId: named(object.clientId) })),
      packages: push.packages.map((pkg) => ({ ...pkg, clientId: namedPackage(pkg.clientId) })),
      policies: push.policies.map((policy) => ({
        ...policy,
        packageId: namedPackage(policy.packageId),
        coverages: policy.coverages?.map((coverage) => ({
          ...coverage,
          riskObjectId: coverage.riskObjectId === null ? null : named(coverage.riskObjectId)!,
        })),
      })),
    },
    found: { ...found, riskObjectOwners: owners, packageOwners },
  };
}
