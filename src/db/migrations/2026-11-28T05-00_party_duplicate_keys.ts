// The keys a party is found by as a possible duplicate (docs/api.md, "Possible duplicates"):
// one row per normalised e-mail, telephone, VIN, enterprise number or birth date of a party.
// The primary key serves the look-up of the parties sharing a key; the second index a
// party's own keys (read, replaced, erased). Frozen in time: Kysely<any>, no app imports.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('party_duplicate_keys')
    .addColumn('distribution_id', 'text', (c) => c.notNull().references('distributions.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('party_id', 'text', (c) => c.notNull().references('parties.id'))
    .addColumn('name', 'text')
    .addPrimaryKeyConstraint('party_duplicate_keys_pk', ['distribution_id', 'kind', 'key', 'party_id'])
    .execute();
  await db.schema.createIndex('party_duplicate_keys_party').on('party_duplicate_keys').column('party_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('party_duplicate_keys').execute();
}
