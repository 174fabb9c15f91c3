// How a push is merged into what the broker already knows: docs/design.md section 2,
// "Matching and merge", rules 6 to 8. Pure functions over the in-memory aggregate; the
// service finds the party (rules 1 to 5) and the repository writes what changed.
import { randomUUID } from 'node:crypto';
import { newRowId } from '../db/ids.ts';
import { isDeepStrictEqual } from 'node:util';
import type {
  Coverage,
  ExternalRef,
  Fields,
  LeadAggregate,
  PolicyPackage,
  RiskObject,
} from './party.aggregate.ts';
import { nextPosition, refKey } from './party.aggregate.ts';
import type { RiskObjectType } from './party.table.ts';

export interface PolicyPush {
  readonly fields: Fields;
  readonly policy_package_id: string | null | undefined;
  readonly refs: readonly ExternalRef[];
  /** undefined: the push says nothing about coverages, which are then kept. */
  readonly coverages: ReadonlyArray<{ risk_object_id: string | null; data: Fields }> | undefined;
}

export interface LeadPush {
  readonly meta: Fields;
  readonly fields: Fields;
  readonly refs: readonly ExternalRef[];
  readonly callbacks: readonly string[];
  readonly cars: readonly Fields[];
  readonly residences: readonly Fields[];
  readonly packages: readonly Fields[];
  readonly policies: readonly PolicyPush[];
}

/**
 * Rule 6: a field present in the push overwrites, an absent one keeps its value, null
 * clears it. Returns the merged object (a new one) and whether anything changed.
 */
export function mergeFields(stored: Fields, pushed: Fields): { merged: Fields; changed: boolean } {
  const merged: Fields = { ...stored };
  for (const [key, value] of Object.entries(pushed)) {
    if (value === undefined) continue;
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  return { merged, changed: !isDeepStrictEqual(merged, stored) };
}

/** Applies the push to the aggregate in place; true when stored data changed. */
export function mergePush(lead: LeadAggregate, push: LeadPush, now: string): boolean {
  let changed = false;
  const meta = mergeFields(lead.meta, push.meta);
  const fields = mergeFields(lead.fields, push.fields);
  lead.meta = meta.merged;
  lead.fields = fields.merged;
  changed ||= meta.changed || fields.changed;

  // Rule 6: external refs and callbacks are added, never removed by a push.
  const refs = addRefs(lead.refs, push.refs);
  lead.refs = refs.all;
  const newCallbacks = push.callbacks.filter((url, i) => !lead.callbacks.includes(url) && push.callbacks.indexOf(url) === i);
  lead.callbacks = [...lead.callbacks, ...newCallbacks];
  changed ||= refs.added.length > 0 || newCallbacks.length > 0;

  // Client ids in the push may resolve to objects stored under another id (a car found by
  // its VIN): references within the same push follow them.
  const riskIds = new Map<string, string>();
  for (const car of push.cars) changed = mergeRiskObject(lead, 'CAR', car, riskIds, now) || changed;
  for (const residence of push.residences) changed = mergeRiskObject(lead, 'RESIDENCE', residence, riskIds, now) || changed;
  const packageIds = new Map<string, string>();
  for (const pkg of push.packages) changed = mergePackage(lead, pkg, packageIds, now) || changed;
  for (const policy of push.policies) changed = mergePolicy(lead, policy, packageIds, riskIds, now) || changed;

  if (changed) lead.updated_at = now;
  return changed;
}

function addRefs(stored: readonly ExternalRef[], pushed: readonly ExternalRef[]): { all: ExternalRef[]; added: ExternalRef[] } {
  const seen = new Set(stored.map(refKey));
  const added: ExternalRef[] = [];
  for (const ref of pushed) {
    if (seen.has(refKey(ref))) continue;
    seen.add(refKey(ref));
    added.push(ref);
  }
  return { all: [...stored, ...added], added };
}

/** Rule 7: by id, then cars by VIN (and residences by address), within the party. */
function mergeRiskObject(
  lead: LeadAggregate,
  type: RiskObjectType,
  pushed: Fields,
  riskIds: Map<string, string>,
  now: string,
): boolean {
  const { id: clientId, ...data } = pushed as Fields & { id?: string };
  const sameType = lead.riskObjects.filter((object) => object.type === type);
  const found =
    (clientId !== undefined ? sameType.find((object) => object.id === clientId) : undefined) ??
    (type === 'CAR' && typeof data.vin === 'string' ? sameType.find((object) => object.vin === data.vin) : undefined) ??
    (type === 'RESIDENCE' && data.address ? sameType.find((object) => sameAddress(object.current.data.address, data.address)) : undefined);

  if (!found) {
    const object = addRiskObject(lead, type, clientId, withoutNulls(data), now);
    if (clientId !== undefined) riskIds.set(clientId, object.id);
    return true;
  }
  if (clientId !== undefined) riskIds.set(clientId, found.id);
  const { merged, changed } = mergeFields(found.current.data, data);
  if (!changed) return false;
  reviseRiskObject(found, merged, now);
  return true;
}

/** A new risk object at the end of the party's list, with `data` as its first revision. */
export function addRiskObject(lead: LeadAggregate, type: RiskObjectType, clientId: string | undefined, data: Fields, now: string): RiskObject {
  const object: RiskObject = {
    // Risk object and package ids stay v4: a client may send them back as its own ids,
    // which the specification requires to be UUID v4.
    id: clientId ?? randomUUID(),
    type,
    position: nextPosition(lead.riskObjects),
    vin: typeof data.vin === 'string' ? data.vin : null,
    current: { id: newRowId(), revision_nr: 1, data, created_at: now },
    created_at: now,
    updated_at: now,
    isNew: true,
    newRevision: true,
  };
  lead.riskObjects.push(object);
  return object;
}

/** A changed risk object gets a new revision; the old one is kept (rule 7). */
export function reviseRiskObject(object: RiskObject, data: Fields, now: string): void {
  object.current = { id: newRowId(), revision_nr: object.current.revision_nr + 1, data, created_at: now };
  object.newRevision = true;
  object.vin = typeof data.vin === 'string' ? data.vin : null;
  object.updated_at = now;
}

/** Rule 8: packages by id (and, lacking one, by insurance company + package number). */
function mergePackage(lead: LeadAggregate, pushed: Fields, packageIds: Map<string, string>, now: string): boolean {
  const { id: clientId, ...data } = pushed as Fields & { id?: string };
  const found =
    (clientId !== undefined ? lead.packages.find((pkg) => pkg.id === clientId) : undefined) ??
    (clientId === undefined && typeof data.package_nr === 'string' && typeof data.insurance_company === 'string'
      ? lead.packages.find((pkg) => pkg.data.package_nr === data.package_nr && pkg.data.insurance_company === data.insurance_company)
      : undefined);
  if (!found) {
    const pkg: PolicyPackage = { id: clientId ?? randomUUID(), position: nextPosition(lead.packages), data: withoutNulls(data), created_at: now, updated_at: now, isNew: true };
    if (clientId !== undefined) packageIds.set(clientId, pkg.id);
    lead.packages.push(pkg);
    return true;
  }
  if (clientId !== undefined) packageIds.set(clientId, found.id);
  const { merged, changed } = mergeFields(found.data, data);
  if (!changed) return false;
  found.data = merged;
  found.changed = true;
  found.updated_at = now;
  return true;
}

/** Rule 8: policies by their external refs, then insurance company + policy number. */
function mergePolicy(
  lead: LeadAggregate,
  pushed: PolicyPush,
  packageIds: ReadonlyMap<string, string>,
  riskIds: ReadonlyMap<string, string>,
  now: string,
): boolean {
  const pushedRefKeys = new Set(pushed.refs.map(refKey));
  const company = pushed.fields.insurance_company;
  const number = pushed.fields.policy_nr;
  const found =
    lead.policies.find((policy) => policy.refs.some((ref) => pushedRefKeys.has(refKey(ref)))) ??
    (typeof company === 'string' && typeof number === 'string'
      ? lead.policies.find((policy) => policy.data.insurance_company === company && policy.data.policy_nr === number)
      : undefined);
  const packageId =
    pushed.policy_package_id === undefined || pushed.policy_package_id === null
      ? pushed.policy_package_id
      : (packageIds.get(pushed.policy_package_id) ?? pushed.policy_package_id);
  const coverages = pushed.coverages?.map(
    (coverage): Coverage => ({
      id: newRowId(),
      risk_object_id: coverage.risk_object_id === null ? null : (riskIds.get(coverage.risk_object_id) ?? coverage.risk_object_id),
      data: coverage.data,
    }),
  );

  if (!found) {
    lead.policies.push({
      id: newRowId(),
      position: nextPosition(lead.policies),
      policy_package_id: packageId ?? null,
      data: withoutNulls(pushed.fields),
      refs: addRefs([], pushed.refs).all,
      coverages: coverages ?? [],
      created_at: now,
      updated_at: now,
      isNew: true,
    });
    return true;
  }
  const { merged, changed: fieldsChanged } = mergeFields(found.data, pushed.fields);
  const packageChanged = packageId !== undefined && packageId !== found.policy_package_id;
  const refs = addRefs(found.refs, pushed.refs);
  // A pushed `coverages` list replaces the previous one (rule 8): compared without the ids
  // we generate, so an identical list is no change.
  const coveragesChanged = coverages !== undefined && !isDeepStrictEqual(coverageContent(coverages), coverageContent(found.coverages));
  if (!fieldsChanged && !packageChanged && refs.added.length === 0 && !coveragesChanged) return false;
  found.data = merged;
  if (packageChanged) found.policy_package_id = packageId ?? null;
  found.refs = refs.all;
  found.newRefs = [...(found.newRefs ?? []), ...refs.added];
  if (coveragesChanged) {
    found.coverages = coverages!;
    found.coveragesChanged = true;
  }
  found.changed = true;
  found.updated_at = now;
  return true;
}

function coverageContent(coverages: readonly Coverage[]): unknown[] {
  return coverages.map(({ risk_object_id, data }) => ({ risk_object_id, data }));
}

/** Stored documents leave out cleared (null) fields. */
export function withoutNulls(fields: Fields): Fields {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== null && value !== undefined));
}

/** Addresses compared on their normalised parts (rule 1). */
export function addressKey(address: unknown): string | undefined {
  if (address === null || typeof address !== 'object') return undefined;
  const a = address as Record<string, unknown>;
  const part = (value: unknown) => (typeof value === 'string' ? value.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase() : '');
  return [
    part(a.country_code ?? 'BE'),
    part(a.zipcode).replace(/[\s-]/g, ''),
    part(a.city),
    part(a.street),
    part(a.housenr),
    part(a.boxnr),
  ].join('|');
}

function sameAddress(a: unknown, b: unknown): boolean {
  const key = addressKey(a);
  return key !== undefined && key === addressKey(b);
}

/**
 * Rule 1's third way to match a customer: email (case-insensitive) + birth + address,
 * all present. Stored in a unique column so concurrent pushes cannot create two parties.
 */
export function customerMatchKey(fields: Fields): string | null {
  const { email, birth, address } = fields;
  if (typeof email !== 'string' || typeof birth !== 'string') return null;
  const key = addressKey(address);
  if (key === undefined) return null;
  return `${email.trim().toLowerCase()}|${birth}|${key}`;
}
