// How a push is merged into what the broker already knows: docs/design.md section 2,
// "Matching and merge", rules 6 to 8. A pure function: the stored aggregate (or none, for a
// new lead) and the push in, the new aggregate and its changeset out; nothing is changed in
// place and nothing is read or written. Matching (rules 1 to 5) has already chosen the party.
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { newRowId } from '../../db/ids.ts';
import { diffAggregates } from '../store/aggregate-diff.ts';
import type { MergeResult } from '../store/changeset.ts';
import { sameAddress } from './match-key.ts';
import {
  nextPosition,
  refKey,
  vinOf,
  withoutNulls,
  type Coverage,
  type Document,
  type ExternalRef,
  type InsurancePolicy,
  type LeadAggregate,
  type PolicyPackage,
  type RiskObject,
  type RiskObjectRevision,
} from '../model/party.aggregate.ts';
import type { PartyType, RiskObjectType } from '../model/party.table.ts';
import type { LeadPush, PushedPackage, PushedPolicy, PushedRiskObject } from './push.ts';

/** Where new ids come from: injected, so the merge stays a function of its inputs. */
export interface IdSource {
  /** A time-ordered id for rows written on every push (src/db/ids.ts). */
  row(): string;
  /** A UUID v4 for risk objects and packages: clients may send those back as their own ids. */
  clientFacing(): string;
}

export interface MergeContext {
  /** The write's time: `updated_at` of everything it changes. */
  readonly now: string;
  readonly ids: IdSource;
}

/** Where one entry of a push landed: the object it merged into (or added), and why. */
export interface Landing {
  /** The entry: 'prospect.risk_objects.cars.1'. */
  readonly entry: string;
  /** Risk objects, packages and policies are told apart by their table: ids are unique per table only. */
  readonly table: 'risk_objects' | 'policy_packages' | 'insurance_policies';
  readonly objectId: string;
  /** The target of the field it matched by ('...cars.1.vin'); the entry's id target when it added the object. */
  readonly matchedBy: string;
}

export interface PushMergeResult extends MergeResult {
  /** Every risk object, package and policy entry of the push, in push order (uniqueness.ts reads them). */
  readonly landings: readonly Landing[];
}

/** A lead with nothing stored yet: what a push that matched no party merges into. */
export function emptyLead(distributionId: string, type: PartyType, context: MergeContext): LeadAggregate {
  return {
    leadId: context.ids.row(),
    partyId: context.ids.row(),
    distributionId,
    type,
    meta: {},
    fields: {},
    version: 1,
    refs: [],
    callbacks: [],
    riskObjects: [],
    packages: [],
    policies: [],
    work: { status: 'new', lostReason: null, assigneeId: null, statusChangedAt: context.now, followUpOn: null },
    created_at: context.now,
    updated_at: context.now,
  };
}

/** Rules 6 to 8: the push merged into `stored` (undefined: a new lead of `distributionId`). */
export function mergePush(
  stored: LeadAggregate | undefined,
  distributionId: string,
  push: LeadPush,
  context: MergeContext,
): PushMergeResult {
  const base = stored ?? emptyLead(distributionId, push.kind, context);
  const revisions = new RevisionMaker(context);
  const landings: Landing[] = [];
  // Client ids in the push may resolve to objects stored under another id (a car found by
  // its VIN): references within the same push follow them.
  const riskIds = new Map<string, string>();
  const riskObjects = [...base.riskObjects];
  for (const pushed of push.riskObjects) mergeRiskObject(riskObjects, pushed, riskIds, revisions, landings, context);
  const packageIds = new Map<string, string>();
  const packages = [...base.packages];
  for (const pushed of push.packages) mergePackage(packages, pushed, packageIds, landings, context);
  const policies = [...base.policies];
  for (const pushed of push.policies) mergePolicy(policies, pushed, { packageIds, riskIds }, landings, context);

  const merged: LeadAggregate = {
    ...base,
    meta: mergeFields(base.meta, push.meta),
    fields: mergeFields(base.fields, push.fields),
    // Rule 6: external refs and callbacks are added, never removed by a push.
    refs: addRefs(
      base.refs,
      push.refs.map((ref) => ref.value),
    ),
    callbacks: addCallbacks(base.callbacks, push.callbacks),
    riskObjects,
    packages,
    policies,
  };
  return { ...diffAggregates(stored, merged, context.now), landings };
}

/**
 * Rule 6: a field present overwrites, an absent one keeps its value, null clears it. The
 * stored object itself comes back when nothing changed, so callers tell by identity.
 */
export function mergeFields(stored: Document, pushed: Document): Document {
  const merged: Record<string, unknown> = { ...stored };
  for (const [key, value] of Object.entries(pushed)) {
    if (value === undefined) continue;
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  return isDeepStrictEqual(merged, stored) ? stored : merged;
}

/**
 * Refs and callbacks are listed in the order they were added, those one push added in text
 * order (company, then ref): the order a read gives back (lead-load.repository.ts), which
 * keeps no position of its own for them, so a push's answer and a later read agree.
 */
function addRefs(stored: readonly ExternalRef[], pushed: readonly ExternalRef[]): readonly ExternalRef[] {
  const seen = new Set(stored.map(refKey));
  const added = pushed.filter((ref) => !seen.has(refKey(ref)) && seen.add(refKey(ref)));
  return added.length === 0 ? stored : [...stored, ...added.sort((a, b) => textOrder(refKey(a), refKey(b)))];
}

function addCallbacks(stored: readonly string[], pushed: readonly string[]): readonly string[] {
  const added = [...new Set(pushed)].filter((url) => !stored.includes(url));
  return added.length === 0 ? stored : [...stored, ...added.sort(textOrder)];
}

/** Code point order, as both databases sort these text columns (the C collation). */
function textOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** New revisions of this merge (rule 7), all at the merge's time. */
export class RevisionMaker {
  readonly #context: MergeContext;

  constructor(context: MergeContext) {
    this.#context = context;
  }

  /** A new risk object at `position`, with `data` as its first revision. */
  add(type: RiskObjectType, id: string, position: number, data: Document): RiskObject {
    const now = this.#context.now;
    const current = this.#revision(1, data);
    return { id, type, position, vin: vinOf(data), current, created_at: now, updated_at: now };
  }

  /** Rule 7: changed data is a new revision; the stored one is kept. */
  revise(object: RiskObject, data: Document): RiskObject {
    const current = this.#revision(object.current.revision_nr + 1, data);
    return { ...object, current, vin: vinOf(data), updated_at: this.#context.now };
  }

  #revision(revision_nr: number, data: Document): RiskObjectRevision {
    return { id: this.#context.ids.row(), revision_nr, data, created_at: this.#context.now };
  }
}

/** Rule 7: by id, then cars by VIN and residences by address, within the party. */
function mergeRiskObject(
  objects: RiskObject[],
  pushed: PushedRiskObject,
  riskIds: Map<string, string>,
  revisions: RevisionMaker,
  landings: Landing[],
  context: MergeContext,
): void {
  const { type, clientId, data, target } = pushed;
  const vin = typeof data.vin === 'string' ? data.vin : undefined;
  const byId =
    clientId === undefined ? -1 : objects.findIndex((object) => object.type === type && object.id === clientId);
  const found =
    byId >= 0
      ? byId
      : objects.findIndex(
          (object) =>
            object.type === type &&
            (type === 'CAR'
              ? vin !== undefined && object.vin === vin
              : data.address !== undefined && sameAddress(object.current.data.address, data.address)),
        );

  if (found < 0) {
    const object = revisions.add(
      type,
      clientId ?? context.ids.clientFacing(),
      nextPosition(objects),
      withoutNulls(data),
    );
    objects.push(object);
    landings.push({ entry: target, table: 'risk_objects', objectId: object.id, matchedBy: `${target}.id` });
    if (clientId !== undefined) riskIds.set(clientId, object.id);
    return;
  }
  const object = objects[found]!;
  const matchedBy = byId >= 0 ? 'id' : type === 'CAR' ? 'vin' : 'address';
  landings.push({ entry: target, table: 'risk_objects', objectId: object.id, matchedBy: `${target}.${matchedBy}` });
  if (clientId !== undefined) riskIds.set(clientId, object.id);
  const merged = mergeFields(object.current.data, data);
  if (merged !== object.current.data) objects[found] = revisions.revise(object, merged);
}

/** Rule 8: packages by id, then by insurance company + package number. */
function mergePackage(
  packages: PolicyPackage[],
  pushed: PushedPackage,
  packageIds: Map<string, string>,
  landings: Landing[],
  context: MergeContext,
): void {
  const { clientId, data, target } = pushed;
  const byId = clientId === undefined ? -1 : packages.findIndex((pkg) => pkg.id === clientId);
  const found =
    byId >= 0
      ? byId
      : typeof data.package_nr === 'string' && typeof data.insurance_company === 'string'
        ? packages.findIndex(
            (pkg) => pkg.data.package_nr === data.package_nr && pkg.data.insurance_company === data.insurance_company,
          )
        : -1;
  if (found < 0) {
    const pkg: PolicyPackage = {
      id: clientId ?? context.ids.clientFacing(),
      position: nextPosition(packages),
      data: withoutNulls(data),
      created_at: context.now,
      updated_at: context.now,
    };
    packages.push(pkg);
    landings.push({ entry: target, table: 'policy_packages', objectId: pkg.id, matchedBy: `${target}.id` });
    if (clientId !== undefined) packageIds.set(clientId, pkg.id);
    return;
  }
  const pkg = packages[found]!;
  landings.push({
    entry: target,
    table: 'policy_packages',
    objectId: pkg.id,
    matchedBy: `${target}.${byId >= 0 ? 'id' : 'package_nr'}`,
  });
  if (clientId !== undefined) packageIds.set(clientId, pkg.id);
  const merged = mergeFields(pkg.data, data);
  if (merged !== pkg.data) packages[found] = { ...pkg, data: merged, updated_at: context.now };
}

/** Rule 8: policies by their external refs, then insurance company + policy number. */
function mergePolicy(
  policies: InsurancePolicy[],
  pushed: PushedPolicy,
  resolved: { readonly packageIds: ReadonlyMap<string, string>; readonly riskIds: ReadonlyMap<string, string> },
  landings: Landing[],
  context: MergeContext,
): void {
  const { found, matchedBy } = findPolicy(policies, pushed);
  const packageId =
    pushed.packageId === undefined || pushed.packageId === null
      ? pushed.packageId
      : (resolved.packageIds.get(pushed.packageId) ?? pushed.packageId);
  const coverages = pushed.coverages?.map(
    (coverage): Coverage => ({
      id: context.ids.row(),
      risk_object_id:
        coverage.riskObjectId === null ? null : (resolved.riskIds.get(coverage.riskObjectId) ?? coverage.riskObjectId),
      data: coverage.data,
    }),
  );
  const refs = pushed.refs.map((ref) => ref.value);

  if (found < 0) {
    const id = context.ids.row();
    policies.push({
      id,
      position: nextPosition(policies),
      policy_package_id: packageId ?? null,
      data: withoutNulls(pushed.data),
      refs: addRefs([], refs),
      coverages: coverages ?? [],
      created_at: context.now,
      updated_at: context.now,
    });
    landings.push({ entry: pushed.target, table: 'insurance_policies', objectId: id, matchedBy: pushed.target });
    return;
  }
  const policy = policies[found]!;
  landings.push({ entry: pushed.target, table: 'insurance_policies', objectId: policy.id, matchedBy });
  const next: InsurancePolicy = {
    ...policy,
    data: mergeFields(policy.data, pushed.data),
    policy_package_id: packageId === undefined ? policy.policy_package_id : packageId,
    refs: addRefs(policy.refs, refs),
    // A pushed `coverages` list replaces the previous one (rule 8): compared without the
    // ids we generate, so an identical list is no change.
    coverages:
      coverages !== undefined && !isDeepStrictEqual(coverageContent(coverages), coverageContent(policy.coverages))
        ? coverages
        : policy.coverages,
  };
  const changed =
    next.data !== policy.data ||
    next.policy_package_id !== policy.policy_package_id ||
    next.refs !== policy.refs ||
    next.coverages !== policy.coverages;
  if (changed) policies[found] = { ...next, updated_at: context.now };
}

/**
 * The stored (or earlier pushed) policy a pushed one is: by any of its refs, then by company
 * + number; with the target of what matched (the ref entry, or `.policy_nr`).
 */
function findPolicy(policies: readonly InsurancePolicy[], pushed: PushedPolicy): { found: number; matchedBy: string } {
  for (const ref of pushed.refs) {
    const key = refKey(ref.value);
    const found = policies.findIndex((policy) => policy.refs.some((own) => refKey(own) === key));
    if (found >= 0) return { found, matchedBy: ref.target };
  }
  const { insurance_company: company, policy_nr: number } = pushed.data;
  const found =
    typeof company === 'string' && typeof number === 'string'
      ? policies.findIndex((policy) => policy.data.insurance_company === company && policy.data.policy_nr === number)
      : -1;
  return { found, matchedBy: `${pushed.target}.policy_nr` };
}

function coverageContent(coverages: readonly Coverage[]): unknown[] {
  return coverages.map(({ risk_object_id, data }) => ({ risk_object_id, data }));
}

/** The ids of a real write: time-ordered row ids, random v4 ids where clients may send them back. */
export const newIds: IdSource = { row: newRowId, clientFacing: randomUUID };
