// The SQL of routing (docs/design.md section 15): a distribution's rules read, replaced as
// a whole, and a round-robin rule's turn taken in the creating transaction; which of the
// users they name are active.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import { run, statement } from '../../db/statements.ts';
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

/** The distribution's rules become `rows` (none: no routing). */
export async function replaceRoutingRules(db: Db, distributionId: string, rows: RoutingRuleTable[]): Promise<void> {
  await db.deleteFrom('routing_rules').where('distribution_id', '=', distributionId).execute();
  if (rows.length > 0) await db.insertInto('routing_rules').values(rows).execute();
}

// The row stays locked until the creating transaction ends: the turns of concurrent
// creations follow one another, and a creation that rolls back gives its turn back.
const takeTurn = statement('routing_rule_turn', {
  sqlite:
    'update routing_rules set turns = turns + 1 where distribution_id = ?1 and position = ?2 and rule_set = ?3 returning turns',
  postgres:
    'update routing_rules set turns = turns + 1 where distribution_id = $1 and position = $2 and rule_set = $3 returning turns',
});

/** The rule's next turn (1 for its first lead), or undefined when its list was replaced meanwhile. */
export async function takeRuleTurn(
  db: Db,
  distributionId: string,
  position: number,
  ruleSet: string,
): Promise<number | undefined> {
  const rows = await run<{ turns: number | string }>(db, takeTurn, [distributionId, position, ruleSet]);
  return rows[0] === undefined ? undefined : Number(rows[0].turns);
}
