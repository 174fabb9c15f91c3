// Two index entries fewer per push (issue 34; docs/benchmarks.md, "Afternoon of 2026-11-28
// (issue 34): two index entries and up to two round trips fewer per push"), the look-ups they
// served unchanged:
// - external_refs: the primary key's columns in the order (distribution_id, entity_type, ref,
//   company). The same unique set, and now also the index of a ref looked up without its
//   company (GET .../leads?ref=), for which `external_refs_by_ref` (migration 2026-11-26T06-10)
//   was one more entry per ref written. SQLite cannot reorder a primary key in place: the
//   table is copied into its new shape.
// - lead_pushes_received (received_at): retention now deletes a distribution's expired push
//   log through `lead_pushes_period` (distribution_id, received_at), one distribution after
//   the other, as it already finds stale leads.
// Frozen in time: Kysely<any>, no app imports.
import { type Kysely, PostgresAdapter, sql } from 'kysely';

const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

/** The primary key's columns, in either order. */
type RefsKey = readonly ('distribution_id' | 'entity_type' | 'company' | 'ref')[];

async function refsKey(db: Kysely<any>, key: RefsKey): Promise<void> {
  if (isPostgres(db)) {
    await sql`alter table external_refs drop constraint external_refs_pk`.execute(db);
    await sql`alter table external_refs add constraint external_refs_pk primary key (${sql.join(key.map((c) => sql.ref(c)))})`.execute(
      db,
    );
    return;
  }
  await db.schema
    .createTable('external_refs_reordered')
    .addColumn('distribution_id', 'text', (c) => c.notNull().references('distributions.id'))
    .addColumn('entity_type', 'text', (c) => c.notNull())
    .addColumn('company', 'text', (c) => c.notNull())
    .addColumn('ref', 'text', (c) => c.notNull())
    .addColumn('entity_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('external_refs_pk', [...key])
    .execute();
  await sql`insert into external_refs_reordered (distribution_id, entity_type, company, ref, entity_id, created_at)
    select distribution_id, entity_type, company, ref, entity_id, created_at from external_refs order by rowid`.execute(
    db,
  );
  await db.schema.dropTable('external_refs').execute();
  await sql`alter table external_refs_reordered rename to external_refs`.execute(db);
  await db.schema.createIndex('external_refs_entity').on('external_refs').column('entity_id').execute();
}

export async function up(db: Kysely<any>): Promise<void> {
  await refsKey(db, ['distribution_id', 'entity_type', 'ref', 'company']);
  // SQLite dropped it with the old table.
  if (isPostgres(db)) await db.schema.dropIndex('external_refs_by_ref').execute();
  await db.schema.dropIndex('lead_pushes_received').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('lead_pushes_received').on('lead_pushes').columns(['received_at']).execute();
  await refsKey(db, ['distribution_id', 'entity_type', 'company', 'ref']);
  await db.schema
    .createIndex('external_refs_by_ref')
    .on('external_refs')
    .columns(['distribution_id', 'entity_type', 'ref'])
    .execute();
}
