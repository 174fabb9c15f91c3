// Finding a lead by its external ref without naming the company (docs/api.md, "Reading
// and updating"): the primary key (distribution_id, entity_type, company, ref) cannot
// serve a look-up without the company, which would then read every ref of the
// distribution. Frozen in time: Kysely<any>, no app imports.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('external_refs_by_ref')
    .on('external_refs')
    .columns(['distribution_id', 'entity_type', 'ref'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('external_refs_by_ref').execute();
}
