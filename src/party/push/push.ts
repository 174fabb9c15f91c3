// The push, read once. A validated body (lead.schema.ts) becomes a typed value that
// matching, the reference checks, the push locks, the merge and the uniqueness check all
// read: each part carries the dot path it came from, so whoever finds a problem with it
// names it in the 422 exactly as the client sent it (docs/design.md section 3).
import type { LeadBody } from '../model/lead.schema.ts';
import type { Document, ExternalRef } from '../model/party.aggregate.ts';
import type { PartyType, RiskObjectType } from '../model/party.table.ts';
import { customerMatchKey } from './match-key.ts';

/** A value with the dot path of the body it came from. */
export interface Targeted<T> {
  readonly value: T;
  readonly target: string;
}

export interface PushedRiskObject {
  readonly type: RiskObjectType;
  /** The client-chosen id, which coverages of the same push may point at. */
  readonly clientId: string | undefined;
  /** The object's fields as sent, without its id; `null` clears a field (rule 6). */
  readonly data: Document;
  /** 'prospect.risk_objects.cars.0' */
  readonly target: string;
}

export interface PushedPackage {
  readonly clientId: string | undefined;
  readonly data: Document;
  readonly target: string;
}

export interface PushedCoverage {
  /** The client id of a risk object of this push or of the stored party. */
  readonly riskObjectId: string | null;
  readonly data: Document;
}

export interface PushedPolicy {
  /** The policy's own fields: without its refs, coverages and package reference. */
  readonly data: Document;
  /** undefined: not sent (kept); null: cleared; else a package's client id. */
  readonly packageId: string | null | undefined;
  readonly refs: readonly Targeted<ExternalRef>[];
  /** undefined: the push says nothing about coverages, which are then kept (rule 8). */
  readonly coverages: readonly PushedCoverage[] | undefined;
  readonly target: string;
}

export interface LeadPush {
  readonly kind: PartyType;
  /** Names the body in `error_str`: "2 validation errors for CustomerLead". */
  readonly subject: 'CustomerLead' | 'CompanyLead';
  /** `prospect.id`: the party the client says this is (rule 1). */
  readonly partyId: string | undefined;
  /** Lead metadata: origin, backref, source. */
  readonly meta: Document;
  /** The prospect's own fields (names, email, birth, address, ...). */
  readonly fields: Document;
  readonly refs: readonly Targeted<ExternalRef>[];
  readonly callbacks: readonly string[];
  /** Cars, then residences, in the order sent. */
  readonly riskObjects: readonly PushedRiskObject[];
  readonly packages: readonly PushedPackage[];
  readonly policies: readonly PushedPolicy[];
  /** Rule 1's email + birth + address key of the pushed customer; null when incomplete or a company. */
  readonly matchKey: string | null;
}

/** The prospect's members that are not its own fields. */
const NOT_FIELDS = new Set([
  'id',
  'callbacks',
  'external_refs',
  'external_ref',
  'risk_objects',
  'policy_packages',
  'insurance_policies',
]);

export function parsePush(body: LeadBody, kind: PartyType): LeadPush {
  const prospect = body.prospect;
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(prospect)) if (!NOT_FIELDS.has(key)) fields[key] = value;
  const meta: Record<string, unknown> = {};
  for (const key of ['origin', 'backref', 'source'] as const) if (body[key] !== undefined) meta[key] = body[key];

  return {
    kind,
    subject: kind === 'CUSTOMER' ? 'CustomerLead' : 'CompanyLead',
    // A UUID in any case names the same party (RFC 9562 section 4); ours are stored lower-case.
    partyId: canonicalId(prospect.id),
    meta,
    fields,
    refs: prospectRefs(prospect),
    callbacks: prospect.callbacks ?? [],
    riskObjects: [
      ...riskObjects('CAR', prospect.risk_objects?.cars, 'prospect.risk_objects.cars'),
      ...riskObjects('RESIDENCE', prospect.risk_objects?.residences, 'prospect.risk_objects.residences'),
    ],
    packages: (prospect.policy_packages ?? []).map(({ id, ...data }, i) => ({
      clientId: canonicalId(id),
      data,
      target: `prospect.policy_packages.${i}`,
    })),
    policies: (prospect.insurance_policies ?? []).map((policy, p): PushedPolicy => {
      const { external_refs, coverages, policy_package_id, ...data } = policy;
      const target = `prospect.insurance_policies.${p}`;
      return {
        data,
        packageId: canonicalId(policy_package_id),
        refs: (external_refs ?? []).map((r, i) => ({
          value: { company: r.company ?? '', ref: r.ref },
          target: `${target}.external_refs.${i}`,
        })),
        coverages: coverages?.map(({ risk_object_id, ...coverage }) => ({
          riskObjectId: canonicalId(risk_object_id) ?? null,
          data: coverage,
        })),
        target,
      };
    }),
    matchKey: kind === 'CUSTOMER' ? customerMatchKey(fields) : null,
  };
}

function riskObjects(
  type: RiskObjectType,
  list: ReadonlyArray<{ id?: string }> | undefined,
  path: string,
): PushedRiskObject[] {
  return (list ?? []).map(({ id, ...data }, i) => ({
    type,
    clientId: canonicalId(id),
    data: type === 'CAR' ? withCanonicalVin(data) : data,
    target: `${path}.${i}`,
  }));
}

/**
 * A VIN in any case is the same VIN: ISO 3779 writes it in capitals, and so it is kept,
 * compared and answered (docs/api.md, "Pushing a lead"), as the VIN decoder reads it, so
 * `wvwzzz1jzxw000001` and `WVWZZZ1JZXW000001` are one car.
 */
export function canonicalVin<T>(vin: T): T {
  return (typeof vin === 'string' ? vin.toUpperCase() : vin) as T;
}

/** A car's data with its VIN in capitals (a party update's cars too, merge-patch.ts). */
export function withCanonicalVin<T extends object>(car: T): T {
  const vin = (car as { vin?: unknown }).vin;
  return typeof vin === 'string' ? { ...car, vin: canonicalVin(vin) } : car;
}

/**
 * A UUID in any case names the same object (RFC 9562 section 4): client-chosen ids are kept
 * and compared in lower case, as the ids we hand out are, so `ABC…` and `abc…` are one car.
 */
export function canonicalId<T extends string | null | undefined>(id: T): T {
  return (typeof id === 'string' ? id.toLowerCase() : id) as T;
}

/** External refs in one form: the array form and the older single-object form alike. */
function prospectRefs(prospect: LeadBody['prospect']): Targeted<ExternalRef>[] {
  const listed = (prospect.external_refs ?? []).map((r, i) => ({
    value: { company: r.external_ref_company ?? '', ref: r.external_ref },
    target: `prospect.external_refs.${i}`,
  }));
  const single = prospect.external_ref
    ? [
        {
          value: { company: prospect.external_ref.external_ref_company ?? '', ref: prospect.external_ref.external_ref },
          target: 'prospect.external_ref',
        },
      ]
    : [];
  return [...listed, ...single];
}
