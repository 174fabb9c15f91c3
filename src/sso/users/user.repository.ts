// All SQL on the users table.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { UserTable } from '../sso.table.ts';

export async function insertUser(db: Kysely<Database>, row: UserTable): Promise<void> {
  await db.insertInto('users').values(row).execute();
}

export async function findUserById(db: Kysely<Database>, id: string): Promise<UserTable | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** By email or username, either compared without regard to case. */
export async function findUserByLogin(db: Kysely<Database>, loginKey: string): Promise<UserTable | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where((eb) => eb.or([eb('email_key', '=', loginKey), eb('username_key', '=', loginKey)]))
    .executeTakeFirst();
}

export async function listUsers(db: Kysely<Database>, distributionId?: string): Promise<UserTable[]> {
  let query = db.selectFrom('users').selectAll().orderBy('created_at').orderBy('id');
  if (distributionId !== undefined) query = query.where('distribution_id', '=', distributionId);
  return query.execute();
}

export async function setUserDisabled(db: Kysely<Database>, id: string, at: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ disabled_at: at })
    .where('id', '=', id)
    .where('disabled_at', 'is', null)
    .execute();
}

export async function setLastLogin(db: Kysely<Database>, id: string, at: string): Promise<void> {
  await db.updateTable('users').set({ last_login: at }).where('id', '=', id).execute();
}

/**
 * The user a bearer token names, while the user is active, with whether the client the
 * token was issued to is still registered: one indexed read per request.
 */
export async function findActiveUserWithClient(db: Kysely<Database>, userId: string, clientId: string) {
  return db
    .selectFrom('users')
    .selectAll('users')
    .select((eb) =>
      eb
        .exists(eb.selectFrom('sso_clients').select('sso_clients.id').where('sso_clients.id', '=', clientId))
        .as('client_registered'),
    )
    .where('users.id', '=', userId)
    .where('users.disabled_at', 'is', null)
    .executeTakeFirst();
}

/** The distribution's active users, what a lead's assignee may be, by username. */
export async function listActiveUsers(
  db: Kysely<Database>,
  distributionId: string,
): Promise<Pick<UserTable, 'id' | 'username' | 'name'>[]> {
  return db
    .selectFrom('users')
    .select(['id', 'username', 'name'])
    .where('distribution_id', '=', distributionId)
    .where('disabled_at', 'is', null)
    .orderBy('username_key')
    .orderBy('id')
    .execute();
}
