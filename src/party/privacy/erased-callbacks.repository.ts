// Which of an erased person's callback URLs no other party of the distribution lists: a
// receiver's 410 Gone remembered for such a URL is forgotten with the person (docs/design.md
// section 14), while one that other parties still list stays remembered for them.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';

export async function callbacksOnlyTheirs(
  db: Kysely<Database>,
  owner: { distributionId: string; partyId: string },
  callbacks: readonly string[],
): Promise<string[]> {
  if (callbacks.length === 0) return [];
  const shared = await db
    .selectFrom('party_callbacks')
    .innerJoin('parties', 'parties.id', 'party_callbacks.party_id')
    .select('party_callbacks.url')
    .where('parties.distribution_id', '=', owner.distributionId)
    .where('party_callbacks.party_id', '<>', owner.partyId)
    .where('party_callbacks.url', 'in', [...callbacks])
    .execute();
  const listedElsewhere = new Set(shared.map((row) => row.url));
  return callbacks.filter((url) => !listedElsewhere.has(url));
}
