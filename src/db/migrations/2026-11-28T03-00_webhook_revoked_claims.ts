// Claims an erasure took back (docs/design.md section 14): a delivery about the erased person
// that a worker had claimed may be waiting in that worker's queue or on its way to the
// receiver. The erasure deletes the delivery with the rest and remembers the claim here,
// ids and a time only, until the worker says it is done with it; the erasure answers only
// then. Frozen in time: written against Kysely<any>, never importing app code.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('webhook_revoked_claims')
    .addColumn('delivery_id', 'text', (c) => c.notNull())
    .addColumn('claim_id', 'text', (c) => c.notNull())
    // The claim's lease: no worker sends on it after that, so no erasure waits longer.
    .addColumn('until', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('webhook_revoked_claims_pk', ['claim_id', 'delivery_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('webhook_revoked_claims').execute();
}
