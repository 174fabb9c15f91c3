// The SQL of the secrets the provider's processes share (sso_secrets), by name.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';

type Db = Kysely<Database>;

/** Stores `value` under `name` unless a value is there already: the first process's wins. */
export async function insertSecretIfAbsent(db: Db, name: string, value: string, at: string): Promise<void> {
  await db
    .insertInto('sso_secrets')
    .values({ name, value, created_at: at })
    .onConflict((conflict) => conflict.column('name').doNothing())
    .execute();
}

export async function readSecret(db: Db, name: string): Promise<string> {
  const row = await db.selectFrom('sso_secrets').select('value').where('name', '=', name).executeTakeFirstOrThrow();
  return row.value;
}
