// The lead as the merge sees it: one party with everything hanging off it. It is loaded
// once per write (lead-load.repository.ts), never changed in place: the merge (merge.ts) returns a
// new aggregate and the changeset (changeset.ts) that turns the stored one into it, and
// representation.ts renders it. JSON documents (a prospect's fields, a car's data) are
// stored as sent, so they stay plain JSON objects here.
import type { LeadStatus, PartyType, RiskObjectType } from './party.table.ts';

/** A JSON object as the client sent it (field values already checked by the schema). */
export type Document = Readonly<Record<string, unknown>>;

/**
 * Stored documents leave out cleared (null) fields. A loop rather than entries, filter and
 * fromEntries: a full push copies some thirty documents (cars, policies, coverages), and the
 * pairs and arrays of that chain took 15 µs of its CPU, the loop 8 (docs/benchmarks.md).
 */
export function withoutNulls(fields: Document): Document {
  const kept: Record<string, unknown> = {};
  for (const key of Object.keys(fields)) {
    const value = fields[key];
    if (value === null || value === undefined) continue;
    // An own field named `__proto__`, as fromEntries makes it, never the object's prototype.
    if (key === '__proto__')
      Object.defineProperty(kept, key, { value, enumerable: true, writable: true, configurable: true });
    else kept[key] = value;
  }
  return kept;
}

export interface ExternalRef {
  /** '' when the reference names no company. */
  readonly company: string;
  readonly ref: string;
}

export interface RiskObjectRevision {
  readonly id: string;
  readonly revision_nr: number;
  readonly data: Document;
  readonly created_at: string;
}

export interface RiskObject {
  readonly id: string;
  readonly type: RiskObjectType;
  /** Order within the party: the order of first push. */
  readonly position: number;
  readonly vin: string | null;
  readonly current: RiskObjectRevision;
  readonly created_at: string;
  readonly updated_at: string;
}

export interface PolicyPackage {
  readonly id: string;
  readonly position: number;
  readonly data: Document;
  readonly created_at: string;
  readonly updated_at: string;
}

export interface Coverage {
  readonly id: string;
  readonly risk_object_id: string | null;
  readonly data: Document;
}

export interface InsurancePolicy {
  readonly id: string;
  readonly position: number;
  readonly policy_package_id: string | null;
  readonly data: Document;
  readonly refs: readonly ExternalRef[];
  readonly coverages: readonly Coverage[];
  readonly created_at: string;
  readonly updated_at: string;
}

/** The broker's work on the lead (docs/design.md section 13): no push ever changes it. */
export interface LeadWork {
  readonly status: LeadStatus;
  /** Only while the status is `lost`. */
  readonly lostReason: string | null;
  /** A user of the distribution, or null. */
  readonly assigneeId: string | null;
  readonly statusChangedAt: string;
  /** The day the broker means to come back to it (YYYY-MM-DD), or null. */
  readonly followUpOn: string | null;
}

export interface LeadAggregate {
  readonly leadId: string;
  readonly partyId: string;
  readonly distributionId: string;
  readonly type: PartyType;
  /** Lead metadata: origin, backref, source. */
  readonly meta: Document;
  /** The prospect's own fields (names, email, birth, address, ...). */
  readonly fields: Document;
  /** Incremented on every stored change: optimistic concurrency and the ETag. */
  readonly version: number;
  readonly refs: readonly ExternalRef[];
  readonly callbacks: readonly string[];
  /** The party's current risk objects (a removed one is no longer here). */
  readonly riskObjects: readonly RiskObject[];
  readonly packages: readonly PolicyPackage[];
  readonly policies: readonly InsurancePolicy[];
  readonly work: LeadWork;
  readonly created_at: string;
  readonly updated_at: string;
}

/** The position after the last one in use: new objects go to the end. */
export function nextPosition(objects: ReadonlyArray<{ position: number }>): number {
  return objects.reduce((max, object) => Math.max(max, object.position), -1) + 1;
}

export function refKey(ref: ExternalRef): string {
  return `${ref.company}\u0000${ref.ref}`;
}

/** The VIN a car's data carries, as its own column (unique per party, rule 7). */
export function vinOf(data: Document): string | null {
  return typeof data.vin === 'string' ? data.vin : null;
}
