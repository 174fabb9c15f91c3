// Sessions of the broker app under /app (docs/design.md section 7): one row per signed-in browser, keyed
// by the SHA-256 of the random cookie value, so a copy of the table signs nobody in.
// Server-side rows (not a self-contained cookie) make sign-out end the session for good,
// and every process behind a load balancer sees the same sessions.
// Frozen in time like every migration: Kysely<any>, no app imports.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('app_sessions')
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('app_sessions_expires').on('app_sessions').column('expires_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('app_sessions').execute();
}
