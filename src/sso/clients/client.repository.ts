// The SQL of OAuth clients (sso_clients), registered with `lead-intake client ...`.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { SsoClientTable } from '../sso.table.ts';

type Db = Kysely<Database>;

export async function insertClient(db: Db, row: SsoClientTable): Promise<void> {
  await db.insertInto('sso_clients').values(row).execute();
}

export async function selectClients(db: Db): Promise<SsoClientTable[]> {
  return db.selectFrom('sso_clients').selectAll().orderBy('created_at').orderBy('id').execute();
}

export async function findClient(db: Db, id: string): Promise<SsoClientTable | undefined> {
  return db.selectFrom('sso_clients').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function deleteClientRow(db: Db, id: string): Promise<void> {
  await db.deleteFrom('sso_clients').where('id', '=', id).execute();
}

/** Inserts the client, or rewrites its secret hash and redirect URIs when its id exists. */
export async function upsertClient(
  db: Db,
  row: SsoClientTable,
  registration: Pick<SsoClientTable, 'secret_hash' | 'redirect_uris'>,
): Promise<void> {
  await db
    .insertInto('sso_clients')
    .values(row)
    .onConflict((conflict) => conflict.column('id').doUpdateSet(registration))
    .execute();
}
