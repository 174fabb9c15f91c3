// Frozen in time: written against Kysely<any> and never importing app code, so later
// changes to the app cannot change what this migration did (kysely example app).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('distributions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('api_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('distribution_id', 'text', (c) => c.notNull().references('distributions.id'))
    .addColumn('name', 'text')
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text')
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('api_tokens_distribution').on('api_tokens').column('distribution_id').execute();

  await db.schema
    .createTable('parties')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('distribution_id', 'text', (c) => c.notNull().references('distributions.id'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('match_key', 'text')
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // docs/design.md rule 10: the database, not a read-then-insert, keeps email+birth+address unique.
  await db.schema
    .createIndex('parties_match_key')
    .on('parties')
    .columns(['distribution_id', 'match_key'])
    .unique()
    .where('match_key', 'is not', null)
    .execute();
  await db.schema
    .createIndex('parties_updated')
    .on('parties')
    .columns(['distribution_id', 'updated_at', 'id'])
    .execute();

  await db.schema
    .createTable('leads')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('distribution_id', 'text', (c) => c.notNull().references('distributions.id'))
    .addColumn('party_id', 'text', (c) => c.notNull().unique().references('parties.id'))
    .addColumn('origin', 'text')
    .addColumn('backref', 'text')
    .addColumn('source', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('leads_updated').on('leads').columns(['distribution_id', 'updated_at', 'id']).execute();

  await db.schema
    .createTable('external_refs')
    .addColumn('distribution_id', 'text', (c) => c.notNull().references('distributions.id'))
    .addColumn('entity_type', 'text', (c) => c.notNull())
    .addColumn('company', 'text', (c) => c.notNull())
    .addColumn('ref', 'text', (c) => c.notNull())
    .addColumn('entity_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('external_refs_pk', ['distribution_id', 'entity_type', 'company', 'ref'])
    .execute();
  await db.schema.createIndex('external_refs_entity').on('external_refs').column('entity_id').execute();

  await db.schema
    .createTable('party_callbacks')
    .addColumn('party_id', 'text', (c) => c.notNull().references('parties.id'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('party_callbacks_pk', ['party_id', 'url'])
    .execute();

  await db.schema
    .createTable('risk_objects')
    .addColumn('id', 'text', (c) => c.primaryKey())
    // Order within the party: the order the objects were first pushed in.
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('distribution_id', 'text', (c) => c.notNull().references('distributions.id'))
    .addColumn('party_id', 'text', (c) => c.notNull().references('parties.id'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('vin', 'text')
    .addColumn('current_revision_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    // Set when a party update leaves the object out; it and its revisions stay stored.
    .addColumn('removed_at', 'text')
    .execute();
  await db.schema.createIndex('risk_objects_party').on('risk_objects').column('party_id').execute();
  await db.schema
    .createIndex('risk_objects_vin')
    .on('risk_objects')
    .columns(['party_id', 'vin'])
    .unique()
    .where(sql<boolean>`vin is not null and removed_at is null`)
    .execute();

  await db.schema
    .createTable('risk_object_revisions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('risk_object_id', 'text', (c) => c.notNull().references('risk_objects.id'))
    .addColumn('revision_nr', 'integer', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('risk_object_revisions_nr', ['risk_object_id', 'revision_nr'])
    .execute();

  await db.schema
    .createTable('policy_packages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('distribution_id', 'text', (c) => c.notNull().references('distributions.id'))
    .addColumn('party_id', 'text', (c) => c.notNull().references('parties.id'))
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('policy_packages_party').on('policy_packages').column('party_id').execute();

  await db.schema
    .createTable('insurance_policies')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('distribution_id', 'text', (c) => c.notNull().references('distributions.id'))
    .addColumn('party_id', 'text', (c) => c.notNull().references('parties.id'))
    .addColumn('policy_package_id', 'text', (c) => c.references('policy_packages.id'))
    .addColumn('insurance_company', 'text')
    .addColumn('policy_nr', 'text')
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('insurance_policies_party').on('insurance_policies').column('party_id').execute();
  await db.schema
    .createIndex('insurance_policies_number')
    .on('insurance_policies')
    .columns(['party_id', 'insurance_company', 'policy_nr'])
    .unique()
    .where((eb) => eb.and([eb('insurance_company', 'is not', null), eb('policy_nr', 'is not', null)]))
    .execute();

  await db.schema
    .createTable('coverages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('insurance_policy_id', 'text', (c) => c.notNull().references('insurance_policies.id'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('risk_object_id', 'text', (c) => c.references('risk_objects.id'))
    .addColumn('data', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('coverages_policy').on('coverages').column('insurance_policy_id').execute();

  await db.schema
    .createTable('lead_pushes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('lead_id', 'text', (c) => c.notNull().references('leads.id'))
    .addColumn('distribution_id', 'text', (c) => c.notNull().references('distributions.id'))
    .addColumn('received_at', 'text', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('caller', 'text', (c) => c.notNull())
    .addColumn('origin', 'text')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('lead_pushes_lead').on('lead_pushes').columns(['lead_id', 'received_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'lead_pushes',
    'coverages',
    'insurance_policies',
    'policy_packages',
    'risk_object_revisions',
    'risk_objects',
    'party_callbacks',
    'external_refs',
    'leads',
    'parties',
    'api_tokens',
    'distributions',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
