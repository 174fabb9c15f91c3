// Idempotency-Key (docs/design.md section 14; docs/api.md, "Retrying safely"): one row per key a
// credential used on a method and path, first a claim while its request runs, then the
// answer it got. Several processes share either database, so the claim lives here and not
// in memory. Frozen in time like every migration: Kysely<any>, no app imports.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    // SHA-256 of credential, method, path and key: one row per key and scope, of a fixed
    // size whatever the key's length.
    .addColumn('lookup', 'text', (c) => c.notNull().unique())
    .addColumn('distribution_id', 'text')
    // SHA-256 of the method, the request target and the body's exact bytes.
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    // running (a claim) | done (the answer below is stored)
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('status', 'integer')
    // Location, ETag and Content-Type of the answer, as JSON.
    .addColumn('headers', 'text')
    .addColumn('body', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    // A claim's lease (a process killed mid-request blocks the key until then), or a
    // stored answer's end (IDEMPOTENCY_TTL). Past it the row counts as absent.
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('idempotency_keys_expires').on('idempotency_keys').column('expires_at').execute();

  // The parties a stored answer concerns: erasing a person removes the answers that show it.
  await db.schema
    .createTable('idempotency_key_parties')
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('distribution_id', 'text', (c) => c.notNull())
    .addColumn('party_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_key_parties_pk', ['key_id', 'party_id'])
    .execute();
  await db.schema
    .createIndex('idempotency_key_parties_party')
    .on('idempotency_key_parties')
    .columns(['party_id', 'distribution_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('idempotency_key_parties').execute();
  await db.schema.dropTable('idempotency_keys').execute();
}
