// The pure rules of a merge (docs/api.md, "Merging two parties"): which fields the survivor
// ends with, which policies would be one policy twice, and the changeset that writes the
// survivor's head once its children have moved.
import type { Changeset } from '../store/changeset.ts';
import type { DuplicateKey } from '../duplicates/duplicate-keys.ts';
import type { Document, InsurancePolicy, LeadAggregate } from '../model/party.aggregate.ts';

/** The survivor's values win; the merged party's fill the fields the survivor has not. */
export function mergedFields(survivor: Document, merged: Document): Document {
  return { ...merged, ...survivor };
}

const policyNumber = (policy: InsurancePolicy) => {
  const { insurance_company: company, policy_nr: number } = policy.data;
  return typeof company === 'string' && typeof number === 'string' ? `${company}\u0000${number}` : undefined;
};

/**
 * The merged party's policies with the insurance company and policy number of one of the
 * survivor's: a party holds each policy once (rule 9), and which of the two is right is the
 * broker's to say, so the merge is refused until one of them is changed.
 */
export function samePolicies(survivor: LeadAggregate, merged: LeadAggregate): InsurancePolicy[] {
  const held = new Set(survivor.policies.map(policyNumber).filter((key) => key !== undefined));
  return merged.policies.filter((policy) => {
    const key = policyNumber(policy);
    return key !== undefined && held.has(key);
  });
}

/** Writes the survivor's head (fields, stamps, search words) and its keys; its children were moved by statement. */
export function survivorChangeset(duplicateKeys: readonly DuplicateKey[]): Changeset {
  return {
    head: 'update',
    partyRefs: [],
    callbacks: [],
    riskObjects: { insert: [], update: [], releaseVins: [], remove: [] },
    revisions: [],
    packages: { insert: [], update: [] },
    policies: { insert: [], update: [], releaseNumbers: [] },
    policyRefs: [],
    coverages: { deleteFor: [], insert: [] },
    duplicateKeys,
  };
}
