// A plain in-memory model of docs/design.md section 2 (matching, merge, references and
// uniqueness, rules 1 to 9, and the party PATCH), of erasure and of merging two parties
// (section 15), written from the rules and not from the
// service's code: it keeps whole leads as simple objects and decides every answer's status
// by the rules' order of precedence. The model-based test (upsert.model.test.ts) runs the
// same requests against a real server and compares each answer and each stored lead.
import { isDeepStrictEqual } from 'node:util';

export type Kind = 'CUSTOMER' | 'COMPANY';
type Json = Record<string, unknown>;

export interface Ref {
  readonly company: string;
  readonly ref: string;
  /**
   * Which push gave the party this ref (the model's clock, one tick per push): a read lists a
   * party's refs by the time they were added (then by company and ref), so after a merge the two
   * parties' refs interleave by the times the server stamped those pushes with (`Stamps`).
   */
  readonly at?: number;
}
export interface ModelObject {
  /** undefined until the server has told which id it gave an object sent without one. */
  id: string | undefined;
  readonly type: 'CAR' | 'RESIDENCE';
  data: Json;
  revision: number;
  removed: boolean;
  /** The survivor's object a merge gave this one up for (removed too): a push naming this id lands on that one. */
  replacedBy?: ModelObject;
}
export interface ModelPackage {
  id: string | undefined;
  data: Json;
  /** The survivor's package a merge joined this one into (same insurance company and number): a push naming this id lands on that one. */
  replacedBy?: ModelPackage;
}
export interface ModelCoverage {
  readonly riskObject: ModelObject | undefined;
  readonly data: Json;
}
export interface ModelPolicy {
  id: string | undefined;
  data: Json;
  package: ModelPackage | null;
  refs: Ref[];
  coverages: ModelCoverage[];
}
export interface ModelParty {
  id: string | undefined;
  leadId: string | undefined;
  readonly kind: Kind;
  meta: Json;
  fields: Json;
  refs: Ref[];
  callbacks: string[];
  /** When each callback URL was added (the model's clock): a read lists them by that time, then by URL. */
  callbackAt: Record<string, number>;
  objects: ModelObject[];
  packages: ModelPackage[];
  policies: ModelPolicy[];
  /** The broker's work (docs/design.md section 13): set by lead PATCHes only, never by a push. */
  work: ModelWork;
}
export interface ModelWork {
  status: string;
  lost_reason: string | null;
  assignee: string | null;
}

/** What the model says a request answers, and the parties after it (unchanged when refused). */
export interface Outcome {
  readonly status: number;
  readonly parties: ModelParty[];
  /** The party the request created or changed (undefined when refused). */
  readonly party?: ModelParty;
}

const sameRef = (a: Ref, b: Ref) => a.company === b.company && a.ref === b.ref;
/** The model's clock: one tick per push, so what a push adds is later than what came before. */
let clock = 0;
/** The tick of the last push the model answered: the run learns the server's time of it from the answer. */
export const lastTick = () => clock;
/**
 * The time the server stamped a tick's push with (its lead's `updated_at`), as far as the run
 * learnt it: two pushes to two parties can share a millisecond, and a merge then lists their refs
 * by company and ref.
 */
export type Stamps = (tick: number) => string;
const refText = (ref: Ref) => [ref.company, ref.ref];
const byText = (a: Ref, b: Ref) => (refText(a) < refText(b) ? -1 : refText(a) > refText(b) ? 1 : 0);
/** Refs are listed as added; those of one push by company, then ref (docs/design.md rule 6). */
function addRefs(list: Ref[], pushed: readonly Ref[], at: number): void {
  const added = pushed.filter(
    (ref, i) => !list.some((own) => sameRef(own, ref)) && pushed.findIndex((r) => sameRef(r, ref)) === i,
  );
  added.sort(byText);
  list.push(...added.map((ref) => ({ company: ref.company, ref: ref.ref, at })));
}
/**
 * Two lists each in the order their items were added, as one list in that order (a merge of
 * two parties): by the time added, items of one time by `tie` (docs/api.md, "Merging two parties").
 */
function interleave<T>(a: readonly T[], b: readonly T[], at: (item: T) => string, tie: (x: T, y: T) => number): T[] {
  const result: T[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const x = a[i];
    const y = b[j];
    const order = x === undefined || y === undefined ? 0 : at(x) < at(y) ? -1 : at(x) > at(y) ? 1 : tie(x, y);
    if (y === undefined || (x !== undefined && order <= 0)) {
      result.push(x!);
      i += 1;
    } else {
      result.push(y);
      j += 1;
    }
  }
  return result;
}
const withoutNulls = (data: Json): Json => Object.fromEntries(Object.entries(data).filter(([, v]) => v != null));
const merged = (stored: Json, pushed: Json): Json => {
  const result = { ...stored };
  for (const [key, value] of Object.entries(pushed)) {
    if (value === null) delete result[key];
    else if (value !== undefined) result[key] = value;
  }
  return result;
};
const lower = (id: unknown) => (typeof id === 'string' ? id.toLowerCase() : id);
/** A VIN in any case is one car, kept in capitals (docs/api.md, "Pushing a lead"). */
const withUpperVin = (car: Json): Json => (typeof car.vin === 'string' ? { ...car, vin: car.vin.toUpperCase() } : car);
/** Addresses are stored with the schema's default country (docs/design.md section 2). */
const withCountry = (address: unknown) =>
  address && typeof address === 'object' ? { country_code: 'BE', ...(address as Json) } : address;

export function addressKey(address: unknown): string | undefined {
  if (!address || typeof address !== 'object') return undefined;
  const a = address as Json;
  const part = (v: unknown) => (typeof v === 'string' ? v.trim().replace(/\s+/g, ' ').toLowerCase() : '');
  return [a.country_code ?? 'BE', a.zipcode, a.city, a.street, a.housenr, a.boxnr].map(part).join('|');
}

function matchKey(kind: Kind, fields: Json): string | undefined {
  if (kind !== 'CUSTOMER' || typeof fields.email !== 'string' || typeof fields.birth !== 'string') return undefined;
  const address = addressKey(fields.address);
  return address && `${fields.email.trim().toLowerCase()}|${fields.birth}|${address}`;
}

function clone(parties: readonly ModelParty[]): ModelParty[] {
  // Objects are shared by reference between a party's lists (a coverage's risk object, a
  // policy's package): cloned together so the references stay within the copy.
  return structuredClone([...parties]);
}

interface PushBody {
  origin?: string | null;
  backref?: string | null;
  source?: string | null;
  prospect: Json;
}

/** What erasures left in the distribution (docs/design.md section 15): the tombstones' party ids and refs. */
export interface Erased {
  readonly parties: readonly string[];
  readonly refs: readonly Ref[];
}
const NOTHING_ERASED: Erased = { parties: [], refs: [] };

/** A party merged into another (docs/design.md section 15): its ids, and the survivor's (moved along when it merges on). */
export interface MergeRecord {
  readonly partyId: string;
  readonly leadId: string;
  readonly intoPartyId: string;
  readonly intoLeadId: string;
}

/** The party an id names: a live party's own, or the survivor of a party merged into another. */
export function survivorOf(merges: readonly MergeRecord[], partyId: string): string {
  return merges.find((merge) => merge.partyId === partyId)?.intoPartyId ?? partyId;
}

/**
 * docs/design.md section 2: a push of `body` (ids resolved) into the distribution holding
 * `parties`, where `erased` was erased (section 15).
 */
export function push(
  parties: readonly ModelParty[],
  kind: Kind,
  body: PushBody,
  erased = NOTHING_ERASED,
  merges: readonly MergeRecord[] = [],
): Outcome {
  const refused = (status: number): Outcome => ({ status, parties: [...parties] });
  const at = ++clock;
  const p = body.prospect;
  // A merged party's id names its survivor (docs/api.md, "Merging two parties").
  const namedId =
    p.id === undefined
      ? undefined
      : parties.some((party) => party.id === lower(p.id))
        ? (lower(p.id) as string)
        : survivorOf(merges, lower(p.id) as string);
  const refs: Ref[] = [
    ...((p.external_refs as Json[] | undefined) ?? []),
    ...(p.external_ref ? [p.external_ref as Json] : []),
  ].map((r) => ({ company: (r.external_ref_company as string | null) ?? '', ref: r.external_ref as string }));
  const cars = (((p.risk_objects as Json | undefined)?.cars as Json[] | undefined) ?? []).map(withUpperVin);
  const residences = ((p.risk_objects as Json | undefined)?.residences as Json[] | undefined) ?? [];
  let pushedObjects = [
    ...cars.map((data) => ({ type: 'CAR' as const, data })),
    ...residences.map((data) => ({ type: 'RESIDENCE' as const, data })),
  ];
  const packages = (p.policy_packages as Json[] | undefined) ?? [];
  let policies = (p.insurance_policies as Json[] | undefined) ?? [];
  const policyRefs = (policy: Json): Ref[] =>
    ((policy.external_refs as Json[] | undefined) ?? []).map((r) => ({
      company: (r.company as string | null) ?? '',
      ref: r.ref as string,
    }));
  const callbacks = (p.callbacks as string[] | undefined) ?? [];

  // The body alone (checked with the schema): a value naming one object given twice.
  const twice = <T>(values: T[], same: (a: T, b: T) => boolean) =>
    values.some((value, i) => values.slice(0, i).some((earlier) => same(earlier, value)));
  const strings = (values: unknown[]) => values.filter((v): v is string => typeof v === 'string');
  const numbered = policies.filter((x) => typeof x.insurance_company === 'string' && typeof x.policy_nr === 'string');
  if (
    twice(strings(pushedObjects.map((o) => lower(o.data.id))), (a, b) => a === b) ||
    twice(strings(packages.map((x) => lower(x.id))), (a, b) => a === b) ||
    twice(strings(cars.map((c) => c.vin)), (a, b) => a === b) ||
    twice(numbered, (a, b) => a.insurance_company === b.insurance_company && a.policy_nr === b.policy_nr) ||
    twice(policies.flatMap(policyRefs), sameRef) ||
    twice(refs, sameRef) ||
    twice(callbacks, (a, b) => a === b)
  )
    return refused(422);

  // Section 11: an erased person's ref, or id, does not bring them back. A ref a live party
  // holds again was not erased from it.
  const live = (ref: Ref) => parties.some((party) => party.refs.some((own) => sameRef(own, ref)));
  const erasedId = namedId !== undefined && erased.parties.includes(namedId);
  if (erasedId || refs.some((ref) => !live(ref) && erased.refs.some((gone) => sameRef(gone, ref)))) return refused(409);

  // Rule 1 and rules 4-5: which party.
  const hits: ModelParty[] = [];
  if (namedId !== undefined) {
    const named = parties.find((party) => party.id === namedId);
    if (!named || named.kind !== kind) return refused(422);
    hits.push(named);
  }
  for (const ref of refs) {
    const owner = parties.find((party) => party.refs.some((own) => sameRef(own, ref)));
    if (owner) hits.push(owner);
  }
  const pushedKey = matchKey(kind, { ...p, address: withCountry(p.address) });
  const keyOwner = pushedKey && parties.find((party) => matchKey(party.kind, party.fields) === pushedKey);
  if (keyOwner) hits.push(keyOwner);
  if (new Set(hits).size > 1 || hits.some((hit) => hit.kind !== kind)) return refused(409);

  const next = clone(parties);
  const index = hits[0] ? parties.indexOf(hits[0]) : -1;
  const party: ModelParty =
    index >= 0
      ? next[index]!
      : {
          id: undefined,
          leadId: undefined,
          kind,
          meta: {},
          fields: {},
          refs: [],
          callbacks: [],
          callbackAt: {},
          objects: [],
          packages: [],
          policies: [],
          work: { status: 'new', lost_reason: null, assignee: null },
        };
  const others = next.filter((other) => other !== party);

  // A risk object id a merge gave up names the survivor's object that stands for it
  // (docs/api.md, "Merging two parties"), in the push's objects and coverages alike.
  const replacement = (id: unknown) => {
    if (typeof id !== 'string') return id;
    const object = parties.flatMap((x) => x.objects).find((o) => o.id === lower(id));
    return object?.replacedBy?.id ?? id;
  };
  pushedObjects = pushedObjects.map((o) =>
    o.data.id === undefined ? o : { ...o, data: { ...o.data, id: replacement(o.data.id) } },
  );
  policies = policies.map((policy) =>
    Array.isArray(policy.coverages)
      ? {
          ...policy,
          coverages: (policy.coverages as Json[]).map((c) =>
            c.risk_object_id === undefined ? c : { ...c, risk_object_id: replacement(c.risk_object_id) },
          ),
        }
      : policy,
  );

  // References that only the stored data settles: 409 for another party's, then 422.
  const ownerOfObject = (id: string) => next.find((x) => x.objects.some((o) => o.id === id));
  const ownerOfPackage = (id: string) => next.find((x) => x.packages.some((k) => k.id === id));
  let conflict = false;
  let invalid = false;
  for (const { type, data } of pushedObjects) {
    const id = lower(data.id) as string | undefined;
    if (id === undefined) continue;
    const owner = ownerOfObject(id);
    if (owner === undefined) continue;
    if (owner !== party) conflict = true;
    else if (!party.objects.some((o) => o.id === id && !o.removed && o.type === type)) invalid = true;
  }
  for (const pkg of packages) {
    const owner = typeof pkg.id === 'string' ? ownerOfPackage(lower(pkg.id) as string) : undefined;
    if (owner !== undefined && owner !== party) conflict = true;
  }
  for (const policy of policies) {
    const named = new Set<ModelPolicy>();
    for (const ref of policyRefs(policy)) {
      if (others.some((other) => other.policies.some((own) => own.refs.some((r) => sameRef(r, ref))))) conflict = true;
      for (const own of party.policies) if (own.refs.some((r) => sameRef(r, ref))) named.add(own);
    }
    if (named.size > 1) conflict = true;
  }
  if (conflict) return refused(409);
  const pushedIds = new Set(pushedObjects.map((o) => lower(o.data.id)).filter((id) => id !== undefined));
  const pushedPackages = new Set(packages.map((k) => lower(k.id)).filter((id) => id !== undefined));
  for (const policy of policies) {
    const pkg = lower(policy.policy_package_id);
    if (typeof pkg === 'string' && !pushedPackages.has(pkg) && !party.packages.some((k) => k.id === pkg))
      invalid = true;
    for (const coverage of (policy.coverages as Json[] | undefined) ?? []) {
      const id = lower(coverage.risk_object_id);
      if (typeof id === 'string' && !pushedIds.has(id) && !party.objects.some((o) => o.id === id && !o.removed))
        invalid = true;
    }
  }
  if (invalid) return refused(422);

  // Rules 6-8: the merge. Each entry lands on one object; `landed` finds two on one.
  const landed = new Set<object>();
  let twiceOnOne = false;
  const land = (target: object) => {
    if (landed.has(target)) twiceOnOne = true;
    landed.add(target);
  };
  const {
    id: _id,
    external_refs,
    external_ref,
    callbacks: _c,
    risk_objects,
    policy_packages,
    insurance_policies,
    ...fields
  } = p;
  const before = matchKey(kind, party.fields);
  party.fields = withoutNulls(merged(party.fields, { ...fields, address: withCountry(fields.address) }));
  party.meta = withoutNulls(merged(party.meta, { origin: body.origin, backref: body.backref, source: body.source }));
  addRefs(party.refs, refs, at);
  const newCallbacks = callbacks.filter((url, i) => !party.callbacks.includes(url) && callbacks.indexOf(url) === i);
  party.callbacks.push(...newCallbacks.sort());
  for (const url of newCallbacks) party.callbackAt[url] = at;

  const objectAlias = new Map<string, ModelObject>();
  for (const { type, data: raw } of pushedObjects) {
    const { id: rawId, ...data } = raw;
    const id = lower(rawId) as string | undefined;
    const current = party.objects.filter((o) => !o.removed && o.type === type);
    const address = withCountry(data.address);
    const found =
      current.find((o) => id !== undefined && o.id === id) ??
      current.find((o) =>
        type === 'CAR'
          ? typeof data.vin === 'string' && o.data.vin === data.vin
          : address !== undefined && addressKey(o.data.address) === addressKey(address),
      );
    const pushed = type === 'RESIDENCE' ? { ...data, address } : data;
    if (found) {
      land(found);
      const next = withoutNulls(merged(found.data, pushed));
      if (!isDeepStrictEqual(next, found.data)) {
        found.data = next;
        found.revision += 1;
      }
      if (id !== undefined) objectAlias.set(id, found);
    } else {
      const object: ModelObject = { id, type, data: withoutNulls(pushed), revision: 1, removed: false };
      party.objects.push(object);
      land(object);
      if (id !== undefined) objectAlias.set(id, object);
    }
  }
  const packageAlias = new Map<string, ModelPackage>();
  // A package id a merge joined into another names the package that stands for it.
  const packageNamed = (id: string | undefined) => {
    const named = party.packages.find((k) => id !== undefined && k.id === id);
    return named?.replacedBy ?? named;
  };
  for (const { id: rawId, ...data } of packages) {
    const id = lower(rawId) as string | undefined;
    const found =
      packageNamed(id) ??
      party.packages.find(
        (k) =>
          !k.replacedBy &&
          typeof data.package_nr === 'string' &&
          typeof data.insurance_company === 'string' &&
          k.data.package_nr === data.package_nr &&
          k.data.insurance_company === data.insurance_company,
      );
    if (found) {
      land(found);
      found.data = withoutNulls(merged(found.data, data));
      if (id !== undefined) packageAlias.set(id, found);
    } else {
      const pkg: ModelPackage = { id, data: withoutNulls(data) };
      party.packages.push(pkg);
      land(pkg);
      if (id !== undefined) packageAlias.set(id, pkg);
    }
  }
  for (const raw of policies) {
    const { external_refs: _r, coverages, policy_package_id, ...data } = raw;
    const pushedRefs = policyRefs(raw);
    const found =
      party.policies.find((own) => own.refs.some((r) => pushedRefs.some((ref) => sameRef(r, ref)))) ??
      party.policies.find(
        (own) =>
          typeof data.insurance_company === 'string' &&
          typeof data.policy_nr === 'string' &&
          own.data.insurance_company === data.insurance_company &&
          own.data.policy_nr === data.policy_nr,
      );
    const pkgId = lower(policy_package_id) as string | null | undefined;
    const pkg = pkgId == null ? pkgId : (packageAlias.get(pkgId) ?? packageNamed(pkgId) ?? null);
    const pushedCoverages = (coverages as Json[] | undefined)?.map(({ risk_object_id, ...coverage }) => {
      const id = lower(risk_object_id) as string | undefined;
      return {
        riskObject: id === undefined ? undefined : (objectAlias.get(id) ?? party.objects.find((o) => o.id === id)),
        data: coverage,
      };
    });
    const policy: ModelPolicy = found ?? { id: undefined, data: {}, package: null, refs: [], coverages: [] };
    if (found) land(found);
    else {
      party.policies.push(policy);
      land(policy);
    }
    policy.data = withoutNulls(merged(policy.data, data));
    if (pkg !== undefined) policy.package = pkg;
    addRefs(policy.refs, pushedRefs, at);
    if (pushedCoverages) policy.coverages = pushedCoverages;
  }

  // Rule 9: nothing merged onto one object twice, and the party's unique values unique.
  const cars2 = party.objects.filter((o) => !o.removed && o.type === 'CAR' && typeof o.data.vin === 'string');
  const numbered2 = party.policies.filter(
    (x) => typeof x.data.insurance_company === 'string' && typeof x.data.policy_nr === 'string',
  );
  if (
    twiceOnOne ||
    twice(cars2, (a, b) => a.data.vin === b.data.vin) ||
    twice(
      numbered2,
      (a, b) => a.data.insurance_company === b.data.insurance_company && a.data.policy_nr === b.data.policy_nr,
    ) ||
    twice(
      party.policies.flatMap((x) => x.refs),
      sameRef,
    )
  )
    return refused(422);

  // Rule 4 after the merge: the party's email + birth + address must not be another's.
  const after = matchKey(kind, party.fields);
  if (after !== undefined && after !== before && others.some((other) => matchKey(other.kind, other.fields) === after))
    return refused(409);
  return index >= 0 ? { status: 200, parties: next, party } : { status: 201, parties: [...next, party], party };
}

/** A party PATCH (JSON Merge Patch over the fields and risk object lists, arrays replace). */
export function patch(parties: readonly ModelParty[], target: ModelParty, body: Json): Outcome {
  const refused = (status: number): Outcome => ({ status, parties: [...parties] });
  const next = clone(parties);
  const party = next[parties.indexOf(target)]!;
  const current = (type: ModelObject['type']) => party.objects.filter((o) => !o.removed && o.type === type);
  const document: Json = {
    ...party.fields,
    risk_objects: {
      cars: current('CAR').map((o) => ({ id: o.id, ...o.data })),
      residences: current('RESIDENCE').map((o) => ({ id: o.id, ...o.data })),
    },
  };
  const patched = mergePatch(document, body) as Json;
  // The patched document is checked with the push's schemas, defaults included.
  if (patched.address) patched.address = withCountry(patched.address);
  const lists = (patched.risk_objects as Json | undefined) ?? {};
  for (const residence of (lists.residences as Json[] | undefined) ?? [])
    residence.address = withCountry(residence.address);
  const listed = [
    ...((lists.cars as Json[] | undefined) ?? []).map((item) => ({ type: 'CAR' as const, item: withUpperVin(item) })),
    ...((lists.residences as Json[] | undefined) ?? []).map((item) => ({ type: 'RESIDENCE' as const, item })),
  ];
  const ids = listed.map(({ item }) => lower(item.id)).filter((id): id is string => typeof id === 'string');
  const vins = listed.map(({ item }) => item.vin).filter((vin): vin is string => typeof vin === 'string');
  if (new Set(ids).size < ids.length || new Set(vins).size < vins.length) return refused(422);
  const own = party.objects.filter((o) => !o.removed);
  // Another party's object's id is refused (409); one of the party's own removed objects, or
  // one listed under the other kind, cannot be this object (422), as in a push.
  if (ids.some((id) => others(next, party).some((x) => x.objects.some((o) => o.id === id)))) return refused(409);
  if (ids.some((id) => party.objects.some((o) => o.id === id && o.removed))) return refused(422);
  if (listed.some(({ type, item }) => own.some((o) => o.id === lower(item.id) && o.type !== type))) return refused(422);

  const { risk_objects: _lists, ...fields } = patched;
  const before = matchKey(party.kind, party.fields);
  const newFields = withoutNulls(fields);
  const kept = new Set<ModelObject>();
  const added: ModelObject[] = [];
  for (const { type, item } of listed) {
    const { id: rawId, ...raw } = item;
    const data = withoutNulls(raw);
    const existing = own.find((o) => o.id === lower(rawId));
    if (existing) {
      kept.add(existing);
      if (!isDeepStrictEqual(existing.data, data)) {
        existing.data = data;
        existing.revision += 1;
      }
    } else added.push({ id: lower(rawId) as string | undefined, type, data, revision: 1, removed: false });
  }
  for (const object of own) if (!kept.has(object)) object.removed = true;
  party.objects.push(...added);
  party.fields = newFields;
  const after = matchKey(party.kind, party.fields);
  if (after !== undefined && after !== before && others(next, party).some((x) => matchKey(x.kind, x.fields) === after))
    return refused(409);
  return { status: 200, parties: next, party };
}

/** docs/design.md section 15: erasing `target` removes it, and its id and refs become a tombstone. */
export function erase(
  parties: readonly ModelParty[],
  target: ModelParty,
  erased: Erased,
): { parties: ModelParty[]; erased: Erased } {
  return {
    parties: parties.filter((party) => party !== target),
    erased: { parties: [...erased.parties, target.id!], refs: [...erased.refs, ...target.refs] },
  };
}

function others(parties: readonly ModelParty[], party: ModelParty): ModelParty[] {
  return parties.filter((other) => other !== party);
}

/** RFC 7396. */
function mergePatch(target: unknown, change: unknown): unknown {
  if (!change || typeof change !== 'object' || Array.isArray(change)) return change;
  const result: Json = target && typeof target === 'object' && !Array.isArray(target) ? { ...(target as Json) } : {};
  for (const [key, value] of Object.entries(change as Json)) {
    if (value === null) delete result[key];
    else result[key] = mergePatch(result[key], value);
  }
  return result;
}

const STATUSES = ['new', 'contacted', 'quoted', 'won', 'lost'];

/**
 * A lead PATCH (docs/design.md section 13): a merge patch of status, lost_reason and
 * assignee. A status outside the list, a lost reason on a lead that is not lost, or an
 * assignee (other than the one it has) who is not a user of the distribution: 422. Leaving
 * `lost` drops the reason.
 */
export function leadPatch(
  parties: readonly ModelParty[],
  target: ModelParty,
  body: Json,
  users: ReadonlySet<string>,
): Outcome {
  const refused = (status: number): Outcome => ({ status, parties: [...parties] });
  if ('status' in body && !STATUSES.includes(body.status as string)) return refused(422);
  const work = target.work;
  const status = (body.status as string | undefined) ?? work.status;
  const reason =
    body.lost_reason !== undefined ? (body.lost_reason as string | null) : status === 'lost' ? work.lost_reason : null;
  if (reason !== null && status !== 'lost') return refused(422);
  const assignee = body.assignee !== undefined ? (body.assignee as string | null) : work.assignee;
  if (assignee !== null && assignee !== work.assignee && !users.has(assignee)) return refused(422);
  const next = clone(parties);
  const party = next[parties.indexOf(target)]!;
  party.work = { status, lost_reason: reason, assignee };
  return { status: 200, parties: next, party };
}

/** What a merge answers, the parties after it, and the merge records after it. */
export interface MergeOutcome extends Outcome {
  readonly merges: readonly MergeRecord[];
  /** The party merged into the survivor (undefined for a retry of a merge already made, or a refusal). */
  readonly merged?: ModelParty;
}

const policyNumber = (policy: ModelPolicy) =>
  typeof policy.data.insurance_company === 'string' && typeof policy.data.policy_nr === 'string'
    ? `${policy.data.insurance_company}\u0000${policy.data.policy_nr}`
    : undefined;

/**
 * docs/design.md section 15 (docs/api.md, "Merging two parties"): `POST …/parties/{intoId}/merge
 * {"from": fromId}`. The refusals in the service's order; then everything of the merged party
 * joins the survivor: the survivor's fields win and the merged party's fill the rest, refs and
 * callbacks as added, risk objects, packages and policies after the survivor's (a car whose VIN
 * the survivor has stays as removed, its coverages pointing at the survivor's car).
 */
export function mergeParties(
  parties: readonly ModelParty[],
  intoId: string,
  fromId: string,
  erased: Erased,
  merges: readonly MergeRecord[],
  stamps: Stamps,
): MergeOutcome {
  const refused = (status: number): MergeOutcome => ({ status, parties: [...parties], merges });
  if (fromId === intoId) return refused(422);
  const survivor = parties.find((party) => party.id === intoId);
  if (survivor === undefined)
    return refused(erased.parties.includes(intoId) || merges.some((m) => m.partyId === intoId) ? 410 : 404);
  const merged = parties.find((party) => party.id === fromId);
  if (merged === undefined) {
    const record = merges.find((m) => m.partyId === fromId);
    // The same merge again (a retry whose answer was lost): the survivor as it is.
    if (record?.intoPartyId === intoId) return { status: 200, parties: [...parties], party: survivor, merges };
    return refused(record !== undefined || erased.parties.includes(fromId) ? 410 : 422);
  }
  if (merged.kind !== survivor.kind) return refused(422);
  // The survivor's e-mail + birth + address, filled from the merged party's, must not be a
  // third party's (rule 4): the merge is refused.
  const filledKey = matchKey(survivor.kind, { ...merged.fields, ...survivor.fields });
  const third = parties.filter((party) => party !== survivor && party !== merged);
  if (
    filledKey !== undefined &&
    filledKey !== matchKey(survivor.kind, survivor.fields) &&
    third.some((party) => matchKey(party.kind, party.fields) === filledKey)
  )
    return refused(409);

  const next = clone(parties);
  const into = next[parties.indexOf(survivor)]!;
  const from = next[parties.indexOf(merged)]!;
  into.fields = { ...from.fields, ...into.fields };
  into.meta = { ...from.meta, ...into.meta };
  into.refs = interleave(into.refs, from.refs, (ref) => stamps(ref.at ?? 0), byText);
  const urls = from.callbacks.filter((url) => !into.callbacks.includes(url));
  const callbackAt = (url: string) => stamps(into.callbackAt[url] ?? from.callbackAt[url] ?? 0);
  for (const url of urls) into.callbackAt[url] = from.callbackAt[url] ?? 0;
  into.callbacks = interleave(into.callbacks, urls, callbackAt, (a, b) => (a < b ? -1 : a > b ? 1 : 0));
  // One car per VIN and one home per address (rule 7): the merged party's one stays as
  // removed, and coverages that pointed at it point at the survivor's.
  const key = (o: ModelObject) =>
    o.type === 'CAR' ? (typeof o.data.vin === 'string' ? `CAR ${o.data.vin}` : undefined) : addressKey(o.data.address);
  const sameObject = new Map<ModelObject, ModelObject>();
  for (const object of from.objects) {
    if (object.removed || key(object) === undefined) continue;
    const own = into.objects.find((o) => !o.removed && o.type === object.type && key(o) === key(object));
    if (own === undefined) continue;
    sameObject.set(object, own);
    object.removed = true;
    object.replacedBy = own;
  }
  // Objects given up before for one given up now stand for the survivor's too.
  for (const object of from.objects) {
    const own = object.replacedBy && sameObject.get(object.replacedBy);
    if (own !== undefined) object.replacedBy = own;
  }
  const repointed = (coverage: ModelCoverage): ModelCoverage => {
    const own = coverage.riskObject && sameObject.get(coverage.riskObject);
    return own === undefined ? coverage : { riskObject: own, data: coverage.data };
  };
  // One package per insurance company and package number (rule 8): the survivor's, its values
  // winning; the merged one stays as replaced by it, and the merged party's policies in it move.
  const packageKey = (k: ModelPackage) =>
    typeof k.data.insurance_company === 'string' && typeof k.data.package_nr === 'string'
      ? `${k.data.insurance_company}\u0000${k.data.package_nr}`
      : undefined;
  const samePackage = new Map<ModelPackage, ModelPackage>();
  for (const pkg of from.packages) {
    if (pkg.replacedBy || packageKey(pkg) === undefined) continue;
    const own = into.packages.find((k) => !k.replacedBy && packageKey(k) === packageKey(pkg));
    if (own === undefined) continue;
    samePackage.set(pkg, own);
    own.data = { ...pkg.data, ...own.data };
    pkg.replacedBy = own;
  }
  for (const pkg of from.packages) {
    const own = pkg.replacedBy && samePackage.get(pkg.replacedBy);
    if (own !== undefined) pkg.replacedBy = own;
  }
  for (const policy of from.policies)
    policy.package = (policy.package && samePackage.get(policy.package)) ?? policy.package;
  // One policy per insurance company and number (rule 9): the survivor's, its values winning,
  // the merged one's filling the rest (its package too), with the refs of both and every
  // coverage of either.
  const joined = new Set<ModelPolicy>();
  for (const policy of from.policies) {
    policy.coverages = policy.coverages.map(repointed);
    const own = into.policies.find((x) => policyNumber(x) !== undefined && policyNumber(x) === policyNumber(policy));
    if (own === undefined) continue;
    joined.add(policy);
    own.data = { ...policy.data, ...own.data };
    own.package ??= policy.package;
    own.refs = interleave(own.refs, policy.refs, (ref) => stamps(ref.at ?? 0), byText);
    for (const coverage of policy.coverages)
      if (!own.coverages.some((c) => c.riskObject === coverage.riskObject && isDeepStrictEqual(c.data, coverage.data)))
        own.coverages.push(coverage);
  }
  into.objects.push(...from.objects);
  into.packages.push(...from.packages);
  into.policies.push(...from.policies.filter((policy) => !joined.has(policy)));
  const record: MergeRecord = {
    partyId: merged.id!,
    leadId: merged.leadId!,
    intoPartyId: survivor.id!,
    intoLeadId: survivor.leadId!,
  };
  return {
    status: 200,
    parties: next.filter((party) => party !== from),
    party: into,
    merged,
    merges: [
      // The parties merged into the merged party before now name the survivor.
      ...merges.map((m) =>
        m.intoPartyId === merged.id ? { ...m, intoPartyId: survivor.id!, intoLeadId: survivor.leadId! } : m,
      ),
      record,
    ],
  };
}
