// A lead's entity tag (docs/api.md, "Reading and updating"): answered by GET as `ETag`, checked by
// PATCH's `If-Match`.
import { ApiError } from '../../errors.ts';
import type { LeadAggregate } from './party.aggregate.ts';

/** A strong ETag that changes with every stored change to the lead (its party's version). */
export function etagOf(lead: Pick<LeadAggregate, 'partyId' | 'version'>): string {
  return `"${lead.partyId.slice(0, 8)}-${lead.version}"`;
}

/** RFC 9110 section 13.1.1: `*` or a list of entity tags; weak tags never match If-Match. */
export function matchesEtag(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  return header
    .split(',')
    .map((tag) => tag.trim())
    .includes(etag);
}

/** A write's `If-Match` (absent: no precondition): 412 when it names no longer the lead as stored. */
export function requireIfMatch(header: string | undefined, lead: Pick<LeadAggregate, 'partyId' | 'version'>): void {
  if (header !== undefined && !matchesEtag(header, etagOf(lead)))
    throw new ApiError(412, 'PreconditionFailed', [{ target: 'If-Match', code: 'precondition_failed' }]);
}
