// References inside a push that only the stored data can settle (DESIGN.md section 2):
// a policy_package_id or risk_object_id names an object in the same push or of the
// matched party; a client-chosen id or a policy's external ref must not belong to
// another party. Every such problem is reported at once.
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import { ConflictError, ValidationError, type Problem } from '../errors.ts';
import type { LeadAggregate } from './party.aggregate.ts';
import type { LeadBody } from './lead.schema.ts';
import { findOwners, findPartyIdsByRefs } from './repository.ts';

export async function checkReferences(
  db: Kysely<Database>,
  distributionId: string,
  body: LeadBody,
  lead: LeadAggregate | undefined,
  subject: string,
): Promise<void> {
  const prospect = body.prospect;
  const cars = prospect.risk_objects?.cars ?? [];
  const residences = prospect.risk_objects?.residences ?? [];
  const packages = prospect.policy_packages ?? [];
  const policies = prospect.insurance_policies ?? [];
  const partyId = lead?.partyId;

  const conflicts: Problem[] = [];
  const riskTargets = [
    ...cars.map((car, i) => ({ id: car.id, target: `prospect.risk_objects.cars.${i}.id` })),
    ...residences.map((residence, i) => ({ id: residence.id, target: `prospect.risk_objects.residences.${i}.id` })),
  ].filter((entry): entry is { id: string; target: string } => entry.id !== undefined);
  const packageTargets = packages
    .map((pkg, i) => ({ id: pkg.id, target: `prospect.policy_packages.${i}.id` }))
    .filter((entry): entry is { id: string; target: string } => entry.id !== undefined);

  for (const [table, entries] of [['risk_objects', riskTargets], ['policy_packages', packageTargets]] as const) {
    const owners = await findOwners(db, table, entries.map((entry) => entry.id));
    for (const owner of owners) {
      if (owner.party_id === partyId) continue;
      for (const entry of entries) if (entry.id === owner.id) conflicts.push({ target: entry.target, code: 'owned_elsewhere' });
    }
  }

  const policyRefs = policies.flatMap((policy, p) =>
    (policy.external_refs ?? []).map((r, i) => ({
      policy: p,
      ref: { company: r.company ?? '', ref: r.ref },
      target: `prospect.insurance_policies.${p}.external_refs.${i}`,
    })),
  );
  const stored = await findPartyIdsByRefs(db, distributionId, 'policy', policyRefs.map((entry) => entry.ref));
  const ownPolicies = new Set(lead?.policies.map((policy) => policy.id) ?? []);
  const hitsByPolicy = new Map<number, Set<string>>();
  for (const row of stored) {
    for (const entry of policyRefs) {
      if (entry.ref.company !== row.company || entry.ref.ref !== row.ref) continue;
      if (!ownPolicies.has(row.entity_id)) conflicts.push({ target: entry.target, code: 'owned_elsewhere' });
      hitsByPolicy.set(entry.policy, (hitsByPolicy.get(entry.policy) ?? new Set()).add(row.entity_id));
    }
  }
  // One pushed policy whose refs name two different stored policies cannot be merged.
  for (const [p, ids] of hitsByPolicy) {
    if (ids.size > 1) conflicts.push({ target: `prospect.insurance_policies.${p}.external_refs`, code: 'conflict_parties' });
  }
  if (conflicts.length > 0) throw new ConflictError(conflicts, subject);

  const knownPackages = new Set([...packageTargets.map((entry) => entry.id), ...(lead?.packages.map((pkg) => pkg.id) ?? [])]);
  const knownRiskObjects = new Set([...riskTargets.map((entry) => entry.id), ...(lead?.riskObjects.map((object) => object.id) ?? [])]);
  const dangling: Problem[] = [];
  policies.forEach((policy, p) => {
    if (typeof policy.policy_package_id === 'string' && !knownPackages.has(policy.policy_package_id)) {
      dangling.push({ target: `prospect.insurance_policies.${p}.policy_package_id`, code: 'unknown_reference' });
    }
    (policy.coverages ?? []).forEach((coverage, c) => {
      if (coverage.risk_object_id !== undefined && !knownRiskObjects.has(coverage.risk_object_id)) {
        dangling.push({ target: `prospect.insurance_policies.${p}.coverages.${c}.risk_object_id`, code: 'unknown_reference' });
      }
    });
  });
  if (dangling.length > 0) throw new ValidationError(dangling, subject);
}
