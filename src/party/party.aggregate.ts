// The lead as the merge sees it: one party with everything hanging off it, loaded once
// per push, changed in memory by merge.ts, written back by repository.ts and
// rendered by representation.ts. JSON documents are plain objects here.
import type { PartyType, RiskObjectType } from './party.table.ts';

export type Fields = Record<string, unknown>;

export interface ExternalRef {
  /** '' when the reference names no company. */
  readonly company: string;
  readonly ref: string;
}

export interface RiskObjectRevision {
  readonly id: string;
  readonly revision_nr: number;
  readonly data: Fields;
  readonly created_at: string;
}

export interface RiskObject {
  readonly id: string;
  readonly type: RiskObjectType;
  readonly position: number;
  vin: string | null;
  current: RiskObjectRevision;
  readonly created_at: string;
  updated_at: string;
  /** Set by the merge when `current` is a revision to insert. */
  newRevision?: boolean;
  isNew?: boolean;
  /** Set by a party update that left the object out. */
  removed?: boolean;
}

export interface PolicyPackage {
  readonly id: string;
  readonly position: number;
  data: Fields;
  readonly created_at: string;
  updated_at: string;
  changed?: boolean;
  isNew?: boolean;
}

export interface Coverage {
  readonly id: string;
  readonly risk_object_id: string | null;
  readonly data: Fields;
}

export interface InsurancePolicy {
  readonly id: string;
  readonly position: number;
  policy_package_id: string | null;
  data: Fields;
  refs: ExternalRef[];
  coverages: Coverage[];
  readonly created_at: string;
  updated_at: string;
  changed?: boolean;
  coveragesChanged?: boolean;
  newRefs?: ExternalRef[];
  isNew?: boolean;
}

export interface LeadAggregate {
  readonly leadId: string;
  readonly partyId: string;
  readonly distributionId: string;
  readonly type: PartyType;
  /** Lead metadata: origin, backref, source. */
  meta: Fields;
  /** The prospect's own fields (names, email, birth, address, ...). */
  fields: Fields;
  version: number;
  refs: ExternalRef[];
  callbacks: string[];
  riskObjects: RiskObject[];
  packages: PolicyPackage[];
  policies: InsurancePolicy[];
  readonly created_at: string;
  updated_at: string;
}

/** The position after the last one in use: new objects go to the end. */
export function nextPosition(objects: ReadonlyArray<{ position: number }>): number {
  return objects.reduce((max, object) => Math.max(max, object.position), -1) + 1;
}

export function refKey(ref: ExternalRef): string {
  return `${ref.company}\u0000${ref.ref}`;
}
