// A policy package a merge of two parties joined into the survivor's one with the same
// insurance company and package number keeps its row and id: `replaced_by` names the
// survivor's package, so a partner's re-sync naming the joined id lands on the one package.
// Frozen: written against Kysely<any>, imports nothing of the app.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('policy_packages').addColumn('replaced_by', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('policy_packages').dropColumn('replaced_by').execute();
}
