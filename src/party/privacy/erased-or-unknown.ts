// A party or lead that is not there: erased (410 Erased, docs/design.md section 15) or
// never known in this distribution (404, as another distribution's ids are). Its use case
// looks for the tombstone (tombstone.repository.ts) and throws what this returns.
import { ErasedError, MergedError, NotFoundError } from '../../errors.ts';

/** A party or lead merged into another: the survivor's ids (docs/api.md, "Merging two parties"). */
type Gone = object & { merged_into?: { party_id: string; lead_id: string } };

/** The error of a missing party, given its tombstone if it has one. */
export function missingParty(tombstone: Gone | undefined): ErasedError | MergedError | NotFoundError {
  if (tombstone?.merged_into !== undefined) return new MergedError('party_id', tombstone.merged_into);
  return tombstone !== undefined
    ? new ErasedError(410, [{ target: 'party_id', code: 'erased' }])
    : new NotFoundError('party_id');
}

/** The error of a missing lead, given its tombstone if it has one. */
export function missingLead(tombstone: Gone | undefined): ErasedError | MergedError | NotFoundError {
  if (tombstone?.merged_into !== undefined) return new MergedError('lead_id', tombstone.merged_into);
  return tombstone !== undefined
    ? new ErasedError(410, [{ target: 'lead_id', code: 'erased' }])
    : new NotFoundError('lead_id');
}
