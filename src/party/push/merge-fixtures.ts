// Fixtures for the unit tests of the pure party rules (merge, matching, references,
// uniqueness): pushes written as a client writes its body, ids that repeat from run to
// run, and leads "as stored" after a first push. Used by the *.test.ts files beside it.
import type { LeadBody } from '../model/lead.schema.ts';
import { mergePush, type IdSource, type MergeContext, type PushMergeResult } from './merge.ts';
import type { LeadAggregate } from '../model/party.aggregate.ts';
import type { PushCandidates } from './push-candidates.repository.ts';
import type { PartyType } from '../model/party.table.ts';
import { parsePush, type LeadPush } from './push.ts';

export const T0 = '2026-01-01T00:00:00.000Z';
export const T1 = '2026-01-02T00:00:00.000Z';
export const VIN_1 = 'WVWZZZ1JZXW000001';
export const VIN_2 = 'WVWZZZ1JZXW000002';
export const DISTRIBUTION = 'distribution';

/** Ids `row-1`, `row-2`, ... and `v4-1`, ...: readable, and the same on every run. */
export function countingIds(): IdSource {
  let rows = 0;
  let clientFacing = 0;
  return { row: () => `row-${++rows}`, clientFacing: () => `v4-${++clientFacing}` };
}

export function at(now: string, ids: IdSource = countingIds()): MergeContext {
  return { now, ids };
}

/** The prospect of a body, names filled in; `extra` goes next to `prospect`. */
export function push(
  prospect: Record<string, unknown>,
  extra: Record<string, unknown> = {},
  kind: PartyType = 'CUSTOMER',
): LeadPush {
  const names = kind === 'CUSTOMER' ? { first_name: 'Els', last_name: 'Peeters' } : { name: 'Peeters NV' };
  return parsePush({ ...extra, prospect: { ...names, ...prospect } } as unknown as LeadBody, kind);
}

/** A policy of a pushed body. */
export function policy(fields: Record<string, unknown> = {}, refs: string[] = []): Record<string, unknown> {
  return { ...fields, ...(refs.length > 0 ? { external_refs: refs.map((ref) => ({ ref })) } : {}) };
}

/** The lead as a new lead after `first`. */
export function storedAfter(first: LeadPush, ids: IdSource = countingIds()): LeadAggregate {
  return mergePush(undefined, DISTRIBUTION, first, at(T0, ids)).lead;
}

/** `second` merged into the lead `first` made, at T1. */
export function mergedAfter(first: LeadPush, second: LeadPush): PushMergeResult & { stored: LeadAggregate } {
  const ids = countingIds();
  const stored = storedAfter(first, ids);
  return { stored, ...mergePush(stored, DISTRIBUTION, second, at(T1, ids)) };
}

/** What the database would say about a push's keys: nothing, but for `parts`. */
export function candidates(parts: Partial<PushCandidates> = {}): PushCandidates {
  return {
    now: T1,
    party: undefined,
    refOwners: [],
    matchKeyOwner: undefined,
    riskObjectOwners: new Map(),
    packageOwners: new Map(),
    packageReplacements: new Map(),
    policyRefOwners: [],
    erasedParty: false,
    lockedPartyId: undefined,
    erasedRefHashes: new Set(),
    ...parts,
  };
}
