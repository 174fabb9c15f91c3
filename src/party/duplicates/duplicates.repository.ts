// The look-up of possible duplicates (docs/api.md, "Possible duplicates"), in two index reads:
// the party's own keys by `party_duplicate_keys_party` and, for each, the other parties'
// entries sharing it by the primary key (distribution, kind, key); then the lead and name of
// only those parties the caller keeps (a shared birth date counts only with a close name).
// Reading every birth-date peer's lead and party would cost as many rows as people share
// the date: some 34 at a million parties, against one at a thousand.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DuplicateKeyKind } from './duplicate-keys.ts';

/**
 * At most this many shared keys are read: a key that thousands of parties share (an
 * office's switchboard number) would otherwise make the answer as slow as they are many.
 */
export const MAX_SHARED_KEYS = 1000;

/** A key another party shares with the party asked about (its `name` beside a birth date). */
export interface SharedKeyEntry {
  readonly partyId: string;
  readonly kind: DuplicateKeyKind;
  /** For `birth`: the other party's folded name, and the asked party's. */
  readonly name: string | null;
  readonly ownName: string | null;
}

/** The lead and the name, as a broker reads it, of a party listed as a possible duplicate. */
export interface SharedParty {
  readonly leadId: string;
  readonly displayName: string;
}

export async function findSharedKeys(db: Kysely<Database>, partyId: string): Promise<SharedKeyEntry[]> {
  const rows = await sharedKeysQuery(db, partyId).execute();
  return rows.map((row) => ({ partyId: row.party_id, kind: row.kind, name: row.name, ownName: row.own_name }));
}

/** The lead and name of each of `partyIds` that has a lead. */
export async function findSharedParties(
  db: Kysely<Database>,
  partyIds: readonly string[],
): Promise<Map<string, SharedParty>> {
  if (partyIds.length === 0) return new Map();
  const rows = await sharedPartiesQuery(db, partyIds).execute();
  return new Map(
    rows.map((row) => [
      row.party_id,
      { leadId: row.lead_id, displayName: displayNameOf(JSON.parse(row.data) as Record<string, unknown>) },
    ]),
  );
}

/** The keys' look-up itself, unrun: bench/duplicates.ts asks each database for its plan. */
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
      .select(['other.party_id', 'other.kind', 'other.name', 'own.name as own_name'])
      // The party alone, not its distribution too: SQLite would then walk the distribution's
      // keys by the primary key instead of the party's few by their index. The caller has
      // checked that the party is the distribution's, and `other` joins on its distribution.
      .where('own.party_id', '=', partyId)
      .where('other.party_id', '<>', partyId)
      .limit(MAX_SHARED_KEYS)
  );
}

/** The parties' look-up, unrun (bench/duplicates.ts): each lead and party by its key. */
export function sharedPartiesQuery(db: Kysely<Database>, partyIds: readonly string[]) {
  return db
    .selectFrom('leads')
    .innerJoin('parties', 'parties.id', 'leads.party_id')
    .select(['leads.party_id', 'leads.id as lead_id', 'parties.data'])
    .where('leads.party_id', 'in', partyIds);
}

/** A customer's first and last name, a company's name. */
function displayNameOf(fields: Record<string, unknown>): string {
  const parts = [fields.first_name, fields.last_name, fields.name].filter((part) => typeof part === 'string');
  return parts.join(' ');
}
