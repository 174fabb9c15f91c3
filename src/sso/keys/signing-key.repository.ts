// The SQL of the provider's signing keys (sso_signing_keys), newest generation first.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { SsoSigningKeyTable } from '../sso.table.ts';

type Db = Kysely<Database>;

export async function hasSigningKey(db: Db): Promise<boolean> {
  const existing = await db.selectFrom('sso_signing_keys').select('kid').limit(1).executeTakeFirst();
  return existing !== undefined;
}

/** The first key: of two processes inserting one at once, the second inserts nothing. */
export async function insertFirstSigningKey(db: Db, row: SsoSigningKeyTable): Promise<void> {
  await db
    .insertInto('sso_signing_keys')
    .values(row)
    .onConflict((conflict) => conflict.doNothing())
    .execute();
}

export async function insertSigningKey(db: Db, row: SsoSigningKeyTable): Promise<void> {
  await db.insertInto('sso_signing_keys').values(row).execute();
}

export async function selectPrivateJwks(db: Db): Promise<string[]> {
  const rows = await db.selectFrom('sso_signing_keys').select('private_jwk').orderBy('generation', 'desc').execute();
  return rows.map((row) => row.private_jwk);
}

export async function selectKeyGenerations(
  db: Db,
): Promise<Array<Pick<SsoSigningKeyTable, 'kid' | 'generation' | 'created_at'>>> {
  return db
    .selectFrom('sso_signing_keys')
    .select(['kid', 'generation', 'created_at'])
    .orderBy('generation', 'desc')
    .execute();
}

export async function deleteSigningKeys(db: Db, kids: readonly string[]): Promise<void> {
  await db.deleteFrom('sso_signing_keys').where('kid', 'in', kids).execute();
}
