// The pure rules of a merge (docs/api.md, "Merging two parties"): which fields the survivor
// ends with, which of the merged party's risk objects, packages and policies are one of the
// survivor's (nothing is kept twice), and the changeset that writes the survivor's head,
// joined packages and joined policies once its children have moved.
import { isDeepStrictEqual } from 'node:util';
import type { Changeset } from '../store/changeset.ts';
import type { DuplicateKey } from '../duplicates/duplicate-keys.ts';
import type { Document, InsurancePolicy, LeadAggregate, PolicyPackage, RiskObject } from '../model/party.aggregate.ts';
import { addressKey } from '../push/match-key.ts';

/** The survivor's values win; the merged party's fill the fields the survivor has not. */
export function mergedFields(survivor: Document, merged: Document): Document {
  return { ...merged, ...survivor };
}

/** One of the merged party's rows that is one of the survivor's: `from` gives way to `into`. */
export interface SameRow {
  readonly from: string;
  readonly into: string;
}

/** What makes two risk objects of a party one (rule 7): a car's VIN, a residence's address. */
const riskObjectKey = (object: RiskObject) => {
  if (object.type === 'CAR') return object.vin === null ? undefined : `CAR\u0000${object.vin}`;
  const address = addressKey(object.current.data.address);
  return address === undefined ? undefined : `RESIDENCE\u0000${address}`;
};

/**
 * The merged party's current cars with a VIN, and residences at an address, that the survivor
 * has too, each with the survivor's: the survivor keeps one of each (docs/api.md, "Merging
 * two parties"), as a push would have found it.
 */
export function sameRiskObjects(survivor: LeadAggregate, merged: LeadAggregate): SameRow[] {
  const held = new Map<string, string>();
  for (const object of survivor.riskObjects) {
    const key = riskObjectKey(object);
    if (key !== undefined && !held.has(key)) held.set(key, object.id);
  }
  return merged.riskObjects.flatMap((object) => {
    const into = held.get(riskObjectKey(object) ?? '');
    return into === undefined ? [] : [{ from: object.id, into }];
  });
}

/** What makes two packages of a party one (rule 8): the insurance company and package number. */
const packageNumber = (pkg: PolicyPackage) => {
  const { insurance_company: company, package_nr: number } = pkg.data;
  return typeof company === 'string' && typeof number === 'string' ? `${company}\u0000${number}` : undefined;
};

/**
 * A package of the merged party with the insurance company and package number of one of the
 * survivor's, and the one package they become: the survivor's, whose values win and whose
 * empty ones the merged package's fill. The merged package is kept as replaced by it (its id
 * keeps working, replaced-ids.ts) and the merged party's policies in it move to it.
 */
export interface JoinedPackage extends SameRow {
  readonly package: PolicyPackage;
}

export function joinedPackages(survivor: LeadAggregate, merged: LeadAggregate, now: string): JoinedPackage[] {
  const byNumber = new Map<string, PolicyPackage>();
  for (const pkg of survivor.packages) {
    const key = packageNumber(pkg);
    if (key !== undefined && !byNumber.has(key)) byNumber.set(key, pkg);
  }
  return merged.packages.flatMap((from) => {
    const key = packageNumber(from) ?? '';
    const into = byNumber.get(key);
    if (into === undefined) return [];
    // Two of the merged party's with one number (possible when a push gave a package the number
    // of another) both join the one: the later fills what the earlier left empty.
    const joined: PolicyPackage = { ...into, data: mergedFields(into.data, from.data), updated_at: now };
    byNumber.set(key, joined);
    return [{ from: from.id, into: into.id, package: joined }];
  });
}

const policyNumber = (policy: InsurancePolicy) => {
  const { insurance_company: company, policy_nr: number } = policy.data;
  return typeof company === 'string' && typeof number === 'string' ? `${company}\u0000${number}` : undefined;
};

/**
 * A policy of the merged party with the insurance company and policy number of one of the
 * survivor's (rule 9: a party holds each policy once), and the one policy they become: the
 * survivor's, whose values win and whose empty ones the merged policy's fill (its package
 * too, the survivor's one for a package joined into it, `samePackages`), with both policies'
 * refs and every coverage of either that it did not have yet (coverages of a car or home
 * given up pointing at the survivor's, `sameObjects`).
 */
export interface JoinedPolicy extends SameRow {
  readonly policy: InsurancePolicy;
}

export function joinedPolicies(
  survivor: LeadAggregate,
  merged: LeadAggregate,
  sameObjects: readonly SameRow[],
  samePackages: readonly SameRow[],
  now: string,
): JoinedPolicy[] {
  const byNumber = new Map<string, InsurancePolicy>();
  for (const policy of survivor.policies) {
    const key = policyNumber(policy);
    if (key !== undefined && !byNumber.has(key)) byNumber.set(key, policy);
  }
  const objectOf = new Map(sameObjects.map((row) => [row.from, row.into]));
  const packageOf = new Map(samePackages.map((row) => [row.from, row.into]));
  return merged.policies.flatMap((from) => {
    const into = byNumber.get(policyNumber(from) ?? '');
    if (into === undefined) return [];
    const coverages = [...into.coverages];
    for (const coverage of from.coverages) {
      const riskObjectId =
        coverage.risk_object_id === null ? null : (objectOf.get(coverage.risk_object_id) ?? coverage.risk_object_id);
      const moved = { ...coverage, risk_object_id: riskObjectId };
      const same = (own: typeof moved) =>
        own.risk_object_id === riskObjectId && isDeepStrictEqual(own.data, moved.data);
      if (!coverages.some(same)) coverages.push(moved);
    }
    const policy: InsurancePolicy = {
      ...into,
      policy_package_id:
        into.policy_package_id ??
        (from.policy_package_id === null ? null : (packageOf.get(from.policy_package_id) ?? from.policy_package_id)),
      data: mergedFields(into.data, from.data),
      refs: [...into.refs, ...from.refs],
      coverages,
      updated_at: now,
    };
    return [{ from: from.id, into: into.id, policy }];
  });
}

/**
 * Writes the survivor's head (fields, stamps, search words), its keys, its packages that the
 * merged party's joined (data) and its policies that the merged party's joined (data, package
 * and coverages); its other children were moved by statement.
 */
export function survivorChangeset(
  duplicateKeys: readonly DuplicateKey[],
  joined: { readonly packages: readonly JoinedPackage[]; readonly policies: readonly JoinedPolicy[] },
): Changeset {
  const policies = joined.policies.map((row) => row.policy);
  return {
    head: 'update',
    partyRefs: [],
    callbacks: [],
    riskObjects: { insert: [], update: [], releaseVins: [], remove: [] },
    revisions: [],
    // The last row of a package is its whole join.
    packages: { insert: [], update: [...new Map(joined.packages.map((row) => [row.into, row.package])).values()] },
    policies: { insert: [], update: policies, releaseNumbers: [] },
    policyRefs: [],
    coverages: {
      deleteFor: policies.map((policy) => policy.id),
      insert: policies.flatMap((policy) =>
        policy.coverages.map((coverage, position) => ({ policyId: policy.id, position, coverage })),
      ),
    },
    duplicateKeys,
  };
}
