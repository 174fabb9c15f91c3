// The SQL of routing (docs/design.md section 15): a distribution's rules read, replaced as
// a whole, and a round-robin rule's turn taken in the creating transaction (SQLite: the
// rule's counter row; PostgreSQL: the rule's sequence, lead-routing.ts says why); which of
// the users they name are active.
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import { dialectOf, prepared, run, runText, statement } from '../../db/statements.ts';
import type { LeadChangeTable } from '../model/party.table.ts';
import type { RoutingRuleTable } from './routing.table.ts';

type Db = Kysely<Database>;

export async function selectRoutingRules(db: Db, distributionId: string): Promise<RoutingRuleTable[]> {
  return db
    .selectFrom('routing_rules')
    .selectAll()
    .where('distribution_id', '=', distributionId)
    .orderBy('position')
    .execute();
}

/** The distribution's active users among `ids`. */
export async function selectActiveUserIds(db: Db, distributionId: string, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('users')
    .select('id')
    .where('distribution_id', '=', distributionId)
    .where('disabled_at', 'is', null)
    .where('id', 'in', ids)
    .execute();
  return rows.map((row) => row.id);
}

/**
 * PostgreSQL: the sequence a rule's turns are taken from, named by its rule set and
 * position (a rule set is a UUID: 32 hex digits, within an identifier's 63 characters).
 */
export const turnSequence = (ruleSet: string, position: number) =>
  `routing_turns_${ruleSet.replaceAll('-', '').toLowerCase()}_${position}`;

/**
 * The distribution's rules become `rows` (none: no routing). On PostgreSQL each rule gets
 * its turn sequence and the replaced rules' sequences go: a process still holding the old
 * list finds its sequence gone and reads the rules again (assignRuleTurn).
 */
export async function replaceRoutingRules(db: Db, distributionId: string, rows: RoutingRuleTable[]): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  const old = postgres ? await selectRoutingRules(db, distributionId) : [];
  await db.deleteFrom('routing_rules').where('distribution_id', '=', distributionId).execute();
  if (rows.length > 0) await db.insertInto('routing_rules').values(rows).execute();
  for (const row of old)
    await sql`drop sequence if exists ${sql.id(turnSequence(row.rule_set, row.position))}`.execute(db);
  if (postgres)
    for (const row of rows)
      await sql`create sequence ${sql.id(turnSequence(row.rule_set, row.position))} as bigint`.execute(db);
}

// The row stays locked until the creating transaction ends: the turns of concurrent
// creations follow one another, and a creation that rolls back gives its turn back.
const takeTurn = statement('routing_rule_turn', {
  sqlite:
    'update routing_rules set turns = turns + 1 where distribution_id = ?1 and position = ?2 and rule_set = ?3 returning turns',
  postgres:
    'update routing_rules set turns = turns + 1 where distribution_id = $1 and position = $2 and rule_set = $3 returning turns',
});

/** SQLite: the rule's next turn (1 for its first lead), or undefined when its list was replaced meanwhile. */
export async function takeRuleTurn(
  db: Db,
  distributionId: string,
  position: number,
  ruleSet: string,
): Promise<number | undefined> {
  const rows = await run<{ turns: number | string }>(db, takeTurn, [distributionId, position, ruleSet]);
  return rows[0] === undefined ? undefined : Number(rows[0].turns);
}

/** PostgreSQL SQLSTATE undefined_table: a sequence dropped by a `routing set`. */
const PG_UNDEFINED_TABLE = '42P01';

// The turn, the assignee of the new lead's row and its history entry in one round trip:
// nextval (1 for the rule's first lead) picks the user among $1 (the rule's active users,
// in order). The entry's changes are the FieldChange list routedLead writes elsewhere.
const assignTurn = prepared(
  'routing_assign_turn',
  `with turn as (select nextval($2::regclass) as turn),
    assigned as (
      update leads set assignee_id = ($1::text[])[(select (turn - 1) % cardinality($1::text[]) + 1 from turn)]
        where id = $3 returning assignee_id),
    logged as (
      insert into lead_changes (id, lead_id, party_id, distribution_id, changed_at, caller, subject, changes)
        select $4, $3, $5, $6, $7, $8, 'lead', '[{"field":"assignee","after":"' || assignee_id || '"}]' from assigned)
    select assignee_id from assigned`,
);

/**
 * PostgreSQL: takes the rule's next turn and gives the lead of `entry` to the user whose
 * turn it is, with `entry` (its `changes` written here) in its history. The user's id, or
 * undefined when the rules were replaced since they were read (the sequence is gone).
 */
export async function assignRuleTurn(
  db: Db,
  entry: Omit<LeadChangeTable, 'changes'>,
  ruleSet: string,
  position: number,
  users: readonly string[],
): Promise<string | undefined> {
  try {
    const rows = await runText<{ assignee_id: string }>(db, assignTurn, [
      users,
      turnSequence(ruleSet, position),
      entry.lead_id,
      entry.id,
      entry.party_id,
      entry.distribution_id,
      entry.changed_at,
      entry.caller,
    ]);
    return rows[0]?.assignee_id;
  } catch (error) {
    if ((error as { code?: unknown }).code === PG_UNDEFINED_TABLE) return undefined;
    throw error;
  }
}
