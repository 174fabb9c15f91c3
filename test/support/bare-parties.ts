// Parties written straight into a migration test's database: a customer row with no fields
// per letter (`0000000a-0000-4000-8000-000000000000` for 'a'), for the rows a migration
// moves (keys, leads) to point at. Returns their ids in the letters' order.
import type { Kysely } from 'kysely';

export async function insertBareParties<const Letters extends readonly string[]>(
  db: Kysely<any>,
  distributionId: string,
  letters: Letters,
): Promise<{ [index in keyof Letters]: string }> {
  const now = '2026-11-28T00:00:00.000Z';
  const ids = letters.map((letter) => `0000000${letter}-0000-4000-8000-000000000000`);
  await db
    .insertInto('parties')
    .values(
      ids.map((id) => ({
        id,
        distribution_id: distributionId,
        type: 'CUSTOMER',
        data: '{}',
        version: 1,
        created_at: now,
        updated_at: now,
      })),
    )
    .execute();
  return ids as { [index in keyof Letters]: string };
}
