// A risk object a merge gave up for the survivor's one (docs/api.md, "Merging two parties": one
// car per VIN, one home per address) keeps its id: `replaced_by` names the survivor's object,
// so a partner's re-sync naming the given-up id lands on the object that stands for it.
// Frozen: written against Kysely<any>, imports nothing of the app.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('risk_objects').addColumn('replaced_by', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('risk_objects').dropColumn('replaced_by').execute();
}
