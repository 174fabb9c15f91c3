// Routing rules (docs/design.md section 15): each distribution's rules, tried in order on a
// lead's creation. A `routing set` replaces the whole list under a new `rule_set` id, so a
// process that still holds the list before it can tell (its turn finds no row). `turns`
// counts the leads a round-robin rule has assigned: advanced in the creating transaction,
// it decides whose turn it is, fairly across processes. Frozen in time: Kysely<any>, no
// app imports.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('routing_rules')
    .addColumn('distribution_id', 'text', (c) => c.notNull().references('distributions.id'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('rule_set', 'text', (c) => c.notNull())
    // The rule as the file gave it (when and assign), JSON.
    .addColumn('rule', 'text', (c) => c.notNull())
    .addColumn('turns', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('routing_rules_pkey', ['distribution_id', 'position'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('routing_rules').execute();
}
