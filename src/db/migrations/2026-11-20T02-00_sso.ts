// Single sign-on (docs/design.md section 4): broker users, OAuth clients, the embedded OpenID
// provider's storage, its signing keys and cookie secrets, and failed-login records.
// Frozen in time like every migration: Kysely<any>, no app imports.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('broker_id', 'text', (c) => c.notNull())
    .addColumn('distribution_id', 'text', (c) => c.notNull().references('distributions.id'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('username', 'text', (c) => c.notNull())
    // Lower-cased copies, computed in the application: SQLite's lower() folds ASCII only,
    // so a unique index on lower(email) would not mean the same on both engines.
    .addColumn('email_key', 'text', (c) => c.notNull().unique())
    .addColumn('username_key', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('country', 'text', (c) => c.notNull())
    .addColumn('locale', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('disabled_at', 'text')
    .addColumn('last_login', 'text')
    .execute();
  await db.schema.createIndex('users_distribution').on('users').column('distribution_id').execute();

  await db.schema
    .createTable('sso_clients')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    // JSON array of the registered redirect URIs.
    .addColumn('redirect_uris', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  // oidc-provider's models (sessions, interactions, grants, codes, refresh tokens, ...) in
  // one table keyed by (model, id), with the secondary keys its adapter interface looks up.
  await db.schema
    .createTable('oidc_payloads')
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('grant_id', 'text')
    .addColumn('user_code', 'text')
    .addColumn('uid', 'text')
    // Null: never expires (production refresh tokens and their grants).
    .addColumn('expires_at', 'text')
    // Epoch seconds, as oidc-provider's `consumed` field.
    .addColumn('consumed_at', 'integer')
    .addPrimaryKeyConstraint('oidc_payloads_pk', ['model', 'id'])
    .execute();
  await db.schema.createIndex('oidc_payloads_grant').on('oidc_payloads').column('grant_id').execute();
  await db.schema.createIndex('oidc_payloads_uid').on('oidc_payloads').columns(['model', 'uid']).execute();
  await db.schema.createIndex('oidc_payloads_user_code').on('oidc_payloads').columns(['model', 'user_code']).execute();
  await db.schema.createIndex('oidc_payloads_expires').on('oidc_payloads').column('expires_at').execute();

  await db.schema
    .createTable('sso_signing_keys')
    .addColumn('kid', 'text', (c) => c.primaryKey())
    // 1 for the first key, +1 per rotation; unique, so two processes starting on an empty
    // database create one first key between them.
    .addColumn('generation', 'integer', (c) => c.notNull().unique())
    .addColumn('private_jwk', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('sso_secrets')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('sso_login_failures')
    .addColumn('id', 'text', (c) => c.primaryKey())
    // `account:<login as typed, lower-cased>` or `ip:<address>`.
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('failed_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('sso_login_failures_subject')
    .on('sso_login_failures')
    .columns(['subject', 'failed_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'sso_login_failures',
    'sso_secrets',
    'sso_signing_keys',
    'oidc_payloads',
    'sso_clients',
    'users',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
