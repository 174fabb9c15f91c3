// A user's name as colleagues and partners read it (docs/api.md, "Users"): the listing
// `GET .../users` answers `{id, username, name}` so that a partner can choose an
// `assignee`. Users created before have none until one is set: null, and the listing
// shows their username instead. Frozen in time: Kysely<any>, no app imports.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('name', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('name').execute();
}
