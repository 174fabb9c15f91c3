// Webhooks (docs/design.md section 5): signing keys per distribution, the transactional outbox
// (events and one delivery per callback URL), every attempt, and the URLs whose receiver
// answered 410 Gone. Frozen in time: written against Kysely<any>, never importing app code.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('webhook_signing_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('distribution_id', 'text', (c) => c.notNull().references('distributions.id'))
    // A signing key, not a password: it must be readable to sign and to hand to the receiver.
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    // Null for the current key; set when a rotation retires it (it still signs until then).
    .addColumn('expires_at', 'text')
    .execute();
  // One current key per distribution, also when two processes create the first at once.
  await db.schema
    .createIndex('webhook_signing_keys_current')
    .on('webhook_signing_keys')
    .column('distribution_id')
    .unique()
    .where(sql<boolean>`expires_at is null`)
    .execute();

  await db.schema
    .createTable('webhook_events')
    // Also the `webhook-id` header: the same on every attempt, so receivers can dedupe.
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('distribution_id', 'text', (c) => c.notNull().references('distributions.id'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('lead_id', 'text', (c) => c.notNull())
    .addColumn('party_id', 'text', (c) => c.notNull())
    // The body exactly as signed and sent, identical on every attempt.
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhook_events_lead').on('webhook_events').columns(['lead_id', 'created_at']).execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('event_id', 'text', (c) => c.notNull().references('webhook_events.id'))
    .addColumn('distribution_id', 'text', (c) => c.notNull().references('distributions.id'))
    .addColumn('url', 'text', (c) => c.notNull())
    // pending | delivered | failed
    .addColumn('status', 'text', (c) => c.notNull())
    // When a worker may take it next. A claim moves it forward by a lease, so the claim of
    // a worker that died becomes due again by itself.
    .addColumn('next_attempt_at', 'text')
    .addColumn('claim_id', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull())
    // `attempts` when the current round of retries began (a replay starts a new round).
    .addColumn('round_start', 'integer', (c) => c.notNull())
    .addColumn('last_status_code', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_due')
    .on('webhook_deliveries')
    .column('next_attempt_at')
    .where(sql<boolean>`status = 'pending'`)
    .execute();
  await db.schema.createIndex('webhook_deliveries_event').on('webhook_deliveries').column('event_id').execute();
  // For `webhook deliveries --status failed` and `replay --all-failed`; partial, so the
  // push that writes a pending delivery pays for no extra index entry.
  await db.schema
    .createIndex('webhook_deliveries_failed')
    .on('webhook_deliveries')
    .column('created_at')
    .where(sql<boolean>`status = 'failed'`)
    .execute();

  await db.schema
    .createTable('webhook_attempts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('delivery_id', 'text', (c) => c.notNull().references('webhook_deliveries.id'))
    .addColumn('attempt_nr', 'integer', (c) => c.notNull())
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    // delivered | retry | failed | gone | refused | stopped
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('error', 'text')
    .execute();
  await db.schema
    .createIndex('webhook_attempts_delivery')
    .on('webhook_attempts')
    .columns(['delivery_id', 'attempt_nr'])
    .execute();

  await db.schema
    .createTable('webhook_stopped_urls')
    .addColumn('distribution_id', 'text', (c) => c.notNull().references('distributions.id'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('stopped_at', 'text', (c) => c.notNull())
    .addColumn('delivery_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('webhook_stopped_urls_pk', ['distribution_id', 'url'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'webhook_stopped_urls',
    'webhook_attempts',
    'webhook_deliveries',
    'webhook_events',
    'webhook_signing_keys',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
