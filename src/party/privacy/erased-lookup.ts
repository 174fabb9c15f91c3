// A party or lead that is not there: erased (410 Erased, docs/design.md section 15) or
// never known in this distribution (404, as another distribution's ids are).
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import { ErasedError, NotFoundError } from '../../errors.ts';
import { findErasedLead, findErasedParty } from './erasure.repository.ts';

export async function missingParty(db: Kysely<Database>, distributionId: string, partyId: string): Promise<never> {
  if (await findErasedParty(db, distributionId, partyId))
    throw new ErasedError(410, [{ target: 'party_id', code: 'erased' }]);
  throw new NotFoundError('party_id');
}

export async function missingLead(db: Kysely<Database>, distributionId: string, leadId: string): Promise<never> {
  if (await findErasedLead(db, distributionId, leadId))
    throw new ErasedError(410, [{ target: 'lead_id', code: 'erased' }]);
  throw new NotFoundError('lead_id');
}
