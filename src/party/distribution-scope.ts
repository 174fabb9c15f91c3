// Reads and writes never cross distributions: another distribution's lead or party is
// answered 404, exactly like an unknown id (docs/api.md, "Reading and updating").
import { NotFoundError } from '../errors.ts';
import type { LeadAggregate } from './party.aggregate.ts';

/** The lead loaded for a party id, if it belongs to `distributionId`; otherwise 404 on `party_id`. */
export function partyInDistribution(lead: LeadAggregate | undefined, distributionId: string): LeadAggregate {
  if (!lead || lead.distributionId !== distributionId) throw new NotFoundError('party_id');
  return lead;
}
