// Routing's round-robin turns on PostgreSQL come from a sequence per rule instead of the
// rule row's `turns` counter (docs/design.md, "Routing's turns"): a counter row is locked
// from a creation's turn to its commit, so every new lead under the rule queued behind
// the one before. Each stored rule gets its sequence, named by its rule set and position,
// going on from the turns its counter has given. SQLite keeps the counter (one writer: no
// one waits for the row). Frozen in time: Kysely<any>, no app imports.
import { type Kysely, PostgresAdapter, sql } from 'kysely';

const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

const sequenceOf = (ruleSet: string, position: number) =>
  `routing_turns_${ruleSet.replaceAll('-', '').toLowerCase()}_${position}`;

export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  const rules = await db.selectFrom('routing_rules').select(['rule_set', 'position', 'turns']).execute();
  for (const rule of rules)
    await sql`create sequence ${sql.id(sequenceOf(rule.rule_set, Number(rule.position)))} as bigint
      start with ${sql.lit(Number(rule.turns) + 1)}`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  const rules = await db.selectFrom('routing_rules').select(['rule_set', 'position']).execute();
  for (const rule of rules)
    await sql`drop sequence if exists ${sql.id(sequenceOf(rule.rule_set, Number(rule.position)))}`.execute(db);
}
