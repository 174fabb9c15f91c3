// References inside a push that only the stored data can settle (docs/design.md section 2):
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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The references of a push that failed its schema, so that one 422 lists them with the
 * schema's problems (docs/design.md section 3). Without a valid body the party cannot be
 * matched, so only what is certain is reported: a policy_package_id or risk_object_id that
 * names nothing in the push and nothing stored at all. A reference to a stored object is
 * left for the push that passes its schema (matching then decides whose it is). Lists are
 * read up to their schema's maxItems, as the validation reads them.
 */
export async function certainlyDanglingReferences(db: Kysely<Database>, body: unknown): Promise<Problem[]> {
  const prospect = field(body, 'prospect');
  const riskObjects = field(prospect, 'risk_objects');
  const ids = (list: unknown[]) => new Set(list.map((item) => field(item, 'id')).filter((id): id is string => typeof id === 'string'));
  const pushedRiskObjects = new Set([...ids(list(riskObjects, 'cars', 50)), ...ids(list(riskObjects, 'residences', 50))]);
  const pushedPackages = ids(list(prospect, 'policy_packages', 50));

  const wanted: Array<{ table: 'policy_packages' | 'risk_objects'; id: string; target: string }> = [];
  list(prospect, 'insurance_policies', 100).forEach((policy, p) => {
    const packageId = field(policy, 'policy_package_id');
    if (typeof packageId === 'string' && UUID.test(packageId) && !pushedPackages.has(packageId)) {
      wanted.push({ table: 'policy_packages', id: packageId, target: `prospect.insurance_policies.${p}.policy_package_id` });
    }
    list(policy, 'coverages', 100).forEach((coverage, c) => {
      const riskObjectId = field(coverage, 'risk_object_id');
      if (typeof riskObjectId === 'string' && UUID.test(riskObjectId) && !pushedRiskObjects.has(riskObjectId)) {
        wanted.push({ table: 'risk_objects', id: riskObjectId, target: `prospect.insurance_policies.${p}.coverages.${c}.risk_object_id` });
      }
    });
  });
  if (wanted.length === 0) return [];
  const stored = new Set<string>();
  for (const table of ['policy_packages', 'risk_objects'] as const) {
    const owners = await findOwners(db, table, [...new Set(wanted.filter((w) => w.table === table).map((w) => w.id))]);
    for (const owner of owners) stored.add(`${table}:${owner.id}`);
  }
  return wanted.filter((w) => !stored.has(`${w.table}:${w.id}`)).map((w) => ({ target: w.target, code: 'unknown_reference' as const }));
}

function field(value: unknown, name: string): unknown {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>)[name] : undefined;
}

function list(value: unknown, name: string, maxItems: number): unknown[] {
  const items = field(value, name);
  return Array.isArray(items) ? items.slice(0, maxItems) : [];
}
