// The look-up of possible duplicates (docs/api.md, "Possible duplicates"): the party's own
// keys by `party_duplicate_keys_party`, then for each the parties sharing it by the primary
// key (distribution, kind, key), with their leads. Index reads only, so it costs the same
// however many parties the distribution holds.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { SharedKey } from './duplicate-ranking.ts';

/**
 * At most this many shared keys are read: a key that thousands of parties share (an
 * office's switchboard number) would otherwise make the answer as slow as they are many.
 */
export const MAX_SHARED_KEYS = 1000;

export async function findSharedKeys(db: Kysely<Database>, partyId: string): Promise<SharedKey[]> {
  const rows = await sharedKeysQuery(db, partyId).execute();
  return rows.map((row) => ({
    partyId: row.party_id,
    leadId: row.lead_id,
    kind: row.kind,
    name: row.name,
    ownName: row.own_name,
    displayName: displayNameOf(JSON.parse(row.data) as Record<string, unknown>),
  }));
}

/** The look-up itself, unrun: bench/duplicates.ts asks each database for its plan. */
export function sharedKeysQuery(db: Kysely<Database>, partyId: string) {
  return (
    db
      .selectFrom('party_duplicate_keys as own')
      .innerJoin('party_duplicate_keys as other', (join) =>
        join
          .onRef('other.distribution_id', '=', 'own.distribution_id')
          .onRef('other.kind', '=', 'own.kind')
          .onRef('other.key', '=', 'own.key'),
      )
      .innerJoin('leads', 'leads.party_id', 'other.party_id')
      .innerJoin('parties', 'parties.id', 'other.party_id')
      .select([
        'other.party_id',
        'other.kind',
        'other.name',
        'own.name as own_name',
        'leads.id as lead_id',
        'parties.data',
      ])
      // The party alone, not its distribution too: SQLite would then walk the distribution's
      // keys by the primary key instead of the party's few by their index. The caller has
      // checked that the party is the distribution's, and `other` joins on its distribution.
      .where('own.party_id', '=', partyId)
      .where('other.party_id', '<>', partyId)
      .limit(MAX_SHARED_KEYS)
  );
}

/** A customer's first and last name, a company's name. */
function displayNameOf(fields: Record<string, unknown>): string {
  const parts = [fields.first_name, fields.last_name, fields.name].filter((part) => typeof part === 'string');
  return parts.join(' ');
}
