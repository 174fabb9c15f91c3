// A party or lead that is not there: erased (410 Erased, docs/design.md section 15) or
// never known in this distribution (404, as another distribution's ids are). Its use case
// looks for the tombstone (tombstone.repository.ts) and throws what this returns.
import { ErasedError, NotFoundError } from '../../errors.ts';

/** The error of a missing party, given its tombstone if it has one. */
export function missingParty(tombstone: object | undefined): ErasedError | NotFoundError {
  return tombstone !== undefined
    ? new ErasedError(410, [{ target: 'party_id', code: 'erased' }])
    : new NotFoundError('party_id');
}

/** The error of a missing lead, given its tombstone if it has one. */
export function missingLead(tombstone: object | undefined): ErasedError | NotFoundError {
  return tombstone !== undefined
    ? new ErasedError(410, [{ target: 'lead_id', code: 'erased' }])
    : new NotFoundError('lead_id');
}
