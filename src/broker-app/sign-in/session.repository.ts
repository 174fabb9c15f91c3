// The SQL of the broker app's sessions (app_sessions), each stored as the hash of its secret.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { UserTable } from '../../sso/index.ts';
import type { AppSessionTable } from './session.table.ts';

type Db = Kysely<Database>;

export async function insertSession(db: Db, row: AppSessionTable): Promise<void> {
  await db.insertInto('app_sessions').values(row).execute();
}

export async function deleteSessionsExpiredBefore(db: Db, at: string): Promise<void> {
  await db.deleteFrom('app_sessions').where('expires_at', '<', at).execute();
}

/** The user of a session that is live at `at`, while the user is not disabled. */
export async function findSessionUser(db: Db, idHash: string, at: string): Promise<UserTable | undefined> {
  return db
    .selectFrom('app_sessions')
    .innerJoin('users', 'users.id', 'app_sessions.user_id')
    .selectAll('users')
    .where('app_sessions.id_hash', '=', idHash)
    .where('app_sessions.expires_at', '>', at)
    .where('users.disabled_at', 'is', null)
    .executeTakeFirst();
}

export async function deleteSession(db: Db, idHash: string): Promise<void> {
  await db.deleteFrom('app_sessions').where('id_hash', '=', idHash).execute();
}
