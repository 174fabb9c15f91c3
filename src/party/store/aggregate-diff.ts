// The changeset between a stored aggregate and the one a merge made of it. The merges
// (merge.ts for a push, merge-patch.ts for a party update) replace every object they
// change with a new one and keep the others as they are, so "changed" is "not the same
// object": one diff serves both, and the rows written are exactly the objects changed.
import type { Changeset, MergeResult } from './changeset.ts';
import { changedDuplicateKeys } from '../duplicates/duplicate-keys.ts';
import { sortNameOf } from '../inbox/search-words.ts';
import { refKey, type ExternalRef, type InsurancePolicy, type LeadAggregate } from '../model/party.aggregate.ts';

export function diffAggregates(stored: LeadAggregate | undefined, merged: LeadAggregate, now: string): MergeResult {
  const storedObjects = byId(stored?.riskObjects);
  const storedPackages = byId(stored?.packages);
  const storedPolicies = byId(stored?.policies);
  const mergedObjects = byId(merged.riskObjects);

  const objects = split(merged.riskObjects, storedObjects);
  const packages = split(merged.packages, storedPackages);
  const policies = split(merged.policies, storedPolicies);
  const removed = (stored?.riskObjects ?? [])
    .filter((object) => !mergedObjects.has(object.id))
    .map((object) => ({ ...object, updated_at: now }));
  const coveragesReplaced = policies.update.filter(
    (policy) => policy.coverages !== storedPolicies.get(policy.id)!.coverages,
  );

  const changes: Changeset = {
    head: undefined,
    partyRefs: added(stored?.refs ?? [], merged.refs),
    callbacks: merged.callbacks.filter((url) => !stored?.callbacks.includes(url)),
    riskObjects: {
      insert: objects.insert,
      update: objects.update,
      remove: removed,
      releaseVins: objects.update
        .filter((object) => releases(storedObjects.get(object.id)!.vin, object.vin))
        .map((object) => object.id),
    },
    revisions: [
      ...objects.insert,
      ...objects.update.filter((object) => object.current !== storedObjects.get(object.id)!.current),
    ].map((object) => ({ riskObjectId: object.id, revision: object.current })),
    packages,
    policies: {
      ...policies,
      releaseNumbers: policies.update
        .filter((policy) => releases(numberOf(storedPolicies.get(policy.id)!), numberOf(policy)))
        .map((policy) => policy.id),
    },
    policyRefs: [
      ...policies.insert.flatMap((policy) =>
        policy.refs.map((ref) => ({ policyId: policy.id, ref, at: policy.created_at })),
      ),
      ...policies.update.flatMap((policy) =>
        added(storedPolicies.get(policy.id)!.refs, policy.refs).map((ref) => ({ policyId: policy.id, ref, at: now })),
      ),
    ],
    coverages: {
      deleteFor: coveragesReplaced.map((policy) => policy.id),
      insert: [...policies.insert, ...coveragesReplaced].flatMap((policy) =>
        policy.coverages.map((coverage, position) => ({ policyId: policy.id, position, coverage })),
      ),
    },
  };
  if (stored === undefined)
    return {
      lead: merged,
      changes: { ...changes, head: 'insert', duplicateKeys: changedDuplicateKeys(undefined, merged) },
    };
  const changed =
    merged.meta !== stored.meta ||
    merged.fields !== stored.fields ||
    changes.partyRefs.length > 0 ||
    changes.callbacks.length > 0 ||
    objects.insert.length +
      objects.update.length +
      removed.length +
      packages.insert.length +
      packages.update.length +
      policies.insert.length +
      policies.update.length >
      0;
  if (!changed) return { lead: stored, changes };
  const lead = { ...merged, version: stored.version + 1, updated_at: now };
  const leadIndexed = {
    origin: (lead.meta.origin ?? null) !== (stored.meta.origin ?? null),
    sortName: lead.fields !== stored.fields && sortNameOf(lead) !== sortNameOf(stored),
  };
  return {
    lead,
    changes: { ...changes, head: 'update', duplicateKeys: changedDuplicateKeys(stored, lead), leadIndexed },
  };
}

/** A unique value given up: held before, another (or none) now. */
function releases(stored: string | null, merged: string | null): boolean {
  return stored !== null && stored !== merged;
}

/** The value of the unique index insurance_policies_number (rule 9), when the policy has one. */
function numberOf(policy: InsurancePolicy): string | null {
  const { insurance_company: company, policy_nr: number } = policy.data;
  return typeof company === 'string' && typeof number === 'string' ? JSON.stringify([company, number]) : null;
}

function byId<T extends { readonly id: string }>(items: readonly T[] | undefined): Map<string, T> {
  return new Map((items ?? []).map((item) => [item.id, item]));
}

/** New items (an id not stored) and changed ones (a stored id, another object). */
function split<T extends { readonly id: string }>(
  items: readonly T[],
  stored: ReadonlyMap<string, T>,
): { insert: T[]; update: T[] } {
  return {
    insert: items.filter((item) => !stored.has(item.id)),
    update: items.filter((item) => stored.has(item.id) && stored.get(item.id) !== item),
  };
}

function added(stored: readonly ExternalRef[], refs: readonly ExternalRef[]): ExternalRef[] {
  const keys = new Set(stored.map(refKey));
  return refs.filter((ref) => !keys.has(refKey(ref)));
}
