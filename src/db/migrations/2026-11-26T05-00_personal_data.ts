// Personal data (docs/design.md section 15): what stays after an erasure (a tombstone per
// party, its leads for the change listing, keyed hashes of its external refs), the key of
// those hashes (shared by every process, like the SSO secrets), the audit log of erasures
// and exports, and the lease that lets one process at a time run a retention pass.
// On SQLite, the lead search index (FTS5) removes a deleted lead's words from its pages at
// once ('secure-delete'), instead of leaving them until its segments are merged: erased
// text must not stay readable in the database file. Frozen in time: Kysely<any>, no app
// imports.
import { type Kysely, PostgresAdapter, sql } from 'kysely';

const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('erased_parties')
    .addColumn('party_id', 'text', (c) => c.primaryKey())
    .addColumn('distribution_id', 'text', (c) => c.notNull().references('distributions.id'))
    .addColumn('erased_at', 'text', (c) => c.notNull())
    // `token:<id>`, `user:<id>`, `cli` or `retention`: who erased, never who was erased.
    .addColumn('erased_by', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('erased_leads')
    .addColumn('lead_id', 'text', (c) => c.primaryKey())
    .addColumn('party_id', 'text', (c) => c.notNull().references('erased_parties.party_id'))
    .addColumn('distribution_id', 'text', (c) => c.notNull().references('distributions.id'))
    .addColumn('erased_at', 'text', (c) => c.notNull())
    .execute();
  // The change listing reads erased leads in the order it reads leads (updated_at, id).
  await db.schema
    .createIndex('erased_leads_listing')
    .on('erased_leads')
    .columns(['distribution_id', 'erased_at', 'lead_id'])
    .execute();

  await db.schema
    .createTable('erased_refs')
    .addColumn('distribution_id', 'text', (c) => c.notNull().references('distributions.id'))
    // HMAC-SHA256 of the ref's entity type, company and ref, under the erasure key.
    .addColumn('ref_hash', 'text', (c) => c.notNull())
    .addColumn('party_id', 'text', (c) => c.notNull().references('erased_parties.party_id'))
    .addPrimaryKeyConstraint('erased_refs_pk', ['distribution_id', 'ref_hash'])
    .execute();

  await db.schema
    .createTable('personal_data_secrets')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('at', 'text', (c) => c.notNull())
    // erase | export
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('distribution_id', 'text', (c) => c.notNull())
    .addColumn('party_id', 'text', (c) => c.notNull())
    .addColumn('actor', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_log_at').on('audit_log').columns(['at', 'id']).execute();

  await db.schema
    .createTable('background_leases')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('holder', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();

  // An erasure deletes a party's risk objects and packages; the database then checks that no
  // coverage or policy still points at them, which without these indexes reads every row
  // of those tables, of every party (partial: most point at nothing).
  await db.schema
    .createIndex('coverages_risk_object')
    .on('coverages')
    .column('risk_object_id')
    .where('risk_object_id', 'is not', null)
    .execute();
  await db.schema
    .createIndex('insurance_policies_package')
    .on('insurance_policies')
    .column('policy_package_id')
    .where('policy_package_id', 'is not', null)
    .execute();

  // Retention finds old push-log entries and finished webhook events by time.
  await db.schema.createIndex('lead_pushes_received').on('lead_pushes').columns(['received_at']).execute();
  await db.schema.createIndex('webhook_events_created').on('webhook_events').columns(['created_at']).execute();

  if (!isPostgres(db)) {
    await sql`insert into lead_search (lead_search, rank) values ('secure-delete', 1)`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) {
    await sql`insert into lead_search (lead_search, rank) values ('secure-delete', 0)`.execute(db);
  }
  await db.schema.dropIndex('webhook_events_created').execute();
  await db.schema.dropIndex('insurance_policies_package').execute();
  await db.schema.dropIndex('coverages_risk_object').execute();
  await db.schema.dropIndex('lead_pushes_received').execute();
  for (const table of [
    'background_leases',
    'audit_log',
    'personal_data_secrets',
    'erased_refs',
    'erased_leads',
    'erased_parties',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
