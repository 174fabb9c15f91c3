// The SQL of the duplicate keys' backfill (duplicate-keys-backfill.service.ts): the next
// parties by id that have no key, held (PostgreSQL: FOR UPDATE, so no push changes their
// keys meanwhile; SQLite's writer is alone), their live cars' VINs, which of them a push
// gave keys since, and the keys written.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import { dialectOf, runText } from '../../db/statements.ts';
import type { PartyDuplicateKeyTable } from './duplicate-keys.table.ts';

type Db = Kysely<Database>;

export interface KeylessParty {
  readonly id: string;
  readonly distribution_id: string;
  readonly data: string;
}

/** Up to `limit` parties after `after` (by id) without any key, locked on PostgreSQL until the transaction ends. */
export async function lockKeylessParties(db: Db, after: string, limit: number): Promise<KeylessParty[]> {
  const postgres = dialectOf(db) === 'postgres';
  const [a, l] = postgres ? ['$1', '$2'] : ['?1', '?2'];
  return runText<KeylessParty>(
    db,
    `select p.id, p.distribution_id, p.data from parties p
      where p.id > ${a} and not exists (select 1 from party_duplicate_keys k where k.party_id = p.id)
      order by p.id limit ${l} ${postgres ? 'for update of p' : ''}`,
    [after, limit],
  );
}

/** The VINs of the parties' cars that are not removed. */
export async function selectLiveVins(
  db: Db,
  partyIds: readonly string[],
): Promise<Array<{ party_id: string; vin: string }>> {
  if (partyIds.length === 0) return [];
  return db
    .selectFrom('risk_objects')
    .select(['party_id', 'vin'])
    .where('party_id', 'in', partyIds)
    .where('removed_at', 'is', null)
    .where('vin', 'is not', null)
    .execute() as Promise<Array<{ party_id: string; vin: string }>>;
}

/** Which of the parties have keys now: a push may have written them before the lock was taken. */
export async function selectKeyedParties(db: Db, partyIds: readonly string[]): Promise<Set<string>> {
  if (partyIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('party_duplicate_keys')
    .select('party_id')
    .distinct()
    .where('party_id', 'in', partyIds)
    .execute();
  return new Set(rows.map((row) => row.party_id));
}

export async function insertDuplicateKeys(db: Db, rows: readonly PartyDuplicateKeyTable[]): Promise<void> {
  if (rows.length > 0)
    await db
      .insertInto('party_duplicate_keys')
      .values([...rows])
      .execute();
}
