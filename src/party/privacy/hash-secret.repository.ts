// The SQL of the key the erased refs are hashed under (docs/design.md section 15): one
// random secret per database, kept in `personal_data_secrets` and never shown. The first
// process to ask writes it; every process reads back the one that was kept.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';

type Db = Kysely<Database>;

export async function insertSecretIfAbsent(db: Db, name: string, value: string, at: string): Promise<void> {
  await db
    .insertInto('personal_data_secrets')
    .values({ name, value, created_at: at })
    .onConflict((conflict) => conflict.column('name').doNothing())
    .execute();
}

export async function readSecret(db: Db, name: string): Promise<string> {
  const row = await db
    .selectFrom('personal_data_secrets')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return row.value;
}
