// A plain in-memory model of docs/design.md section 2 (matching, merge, references and
// uniqueness, rules 1 to 9, and the party PATCH), written from the rules and not from the
// service's code: it keeps whole leads as simple objects and decides every answer's status
// by the rules' order of precedence. The model-based test (upsert.model.test.ts) runs the
// same requests against a real server and compares each answer and each stored lead.
import { isDeepStrictEqual } from 'node:util';

export type Kind = 'CUSTOMER' | 'COMPANY';
type Json = Record<string, unknown>;

export interface Ref {
  readonly company: string;
  readonly ref: string;
}
export interface ModelObject {
  /** undefined until the server has told which id it gave an object sent without one. */
  id: string | undefined;
  readonly type: 'CAR' | 'RESIDENCE';
  data: Json;
  revision: number;
  removed: boolean;
}
export interface ModelPackage {
  id: string | undefined;
  data: Json;
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
/** Refs are listed as added; those of one push by company, then ref (docs/design.md rule 6). */
function addRefs(list: Ref[], pushed: readonly Ref[]): void {
  const added = pushed.filter(
    (ref, i) => !list.some((own) => sameRef(own, ref)) && pushed.findIndex((r) => sameRef(r, ref)) === i,
  );
  const text = (ref: Ref) => [ref.company, ref.ref];
  added.sort((a, b) => (text(a) < text(b) ? -1 : text(a) > text(b) ? 1 : 0));
  list.push(...added);
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

/**
 * docs/design.md section 2: a push of `body` (ids resolved) into the distribution holding
 * `parties`, where `erased` was erased (section 15).
 */
export function push(parties: readonly ModelParty[], kind: Kind, body: PushBody, erased = NOTHING_ERASED): Outcome {
  const refused = (status: number): Outcome => ({ status, parties: [...parties] });
  const p = body.prospect;
  const refs: Ref[] = [
    ...((p.external_refs as Json[] | undefined) ?? []),
    ...(p.external_ref ? [p.external_ref as Json] : []),
  ].map((r) => ({ company: (r.external_ref_company as string | null) ?? '', ref: r.external_ref as string }));
  const cars = (((p.risk_objects as Json | undefined)?.cars as Json[] | undefined) ?? []).map(withUpperVin);
  const residences = ((p.risk_objects as Json | undefined)?.residences as Json[] | undefined) ?? [];
  const pushedObjects = [
    ...cars.map((data) => ({ type: 'CAR' as const, data })),
    ...residences.map((data) => ({ type: 'RESIDENCE' as const, data })),
  ];
  const packages = (p.policy_packages as Json[] | undefined) ?? [];
  const policies = (p.insurance_policies as Json[] | undefined) ?? [];
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
  const erasedId = p.id !== undefined && erased.parties.includes(lower(p.id) as string);
  if (erasedId || refs.some((ref) => !live(ref) && erased.refs.some((gone) => sameRef(gone, ref)))) return refused(409);

  // Rule 1 and rules 4-5: which party.
  const hits: ModelParty[] = [];
  if (p.id !== undefined) {
    const named = parties.find((party) => party.id === lower(p.id));
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
          objects: [],
          packages: [],
          policies: [],
          work: { status: 'new', lost_reason: null, assignee: null },
        };
  const others = next.filter((other) => other !== party);

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
  addRefs(party.refs, refs);
  party.callbacks.push(...callbacks.filter((url) => !party.callbacks.includes(url)).sort());

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
  for (const { id: rawId, ...data } of packages) {
    const id = lower(rawId) as string | undefined;
    const found =
      party.packages.find((k) => id !== undefined && k.id === id) ??
      party.packages.find(
        (k) =>
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
    const pkg = pkgId == null ? pkgId : (packageAlias.get(pkgId) ?? party.packages.find((k) => k.id === pkgId) ?? null);
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
    addRefs(policy.refs, pushedRefs);
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
