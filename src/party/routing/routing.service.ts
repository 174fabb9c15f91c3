// Setting and showing a distribution's routing rules (docs/design.md section 15; the CLI's
// `lead-intake routing set|show`, the broker app's read-only page). A set replaces the
// whole list in one transaction, under a new rule-set id, after the file is checked
// (routing-file.ts) and every user it names is an active user of the distribution.
// Running servers take the new list up within ROUTING_RULES_TTL_MS (lead-routing.ts).
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import { requireDistribution } from '../../distributions/distribution.service.ts';
import { usersOfRule } from './lead-routing.ts';
import { readRoutingFile, type RoutingFileProblem } from './routing-file.ts';
import type { RoutingRule, RoutingRules } from './routing-rules.schema.ts';
import { replaceRoutingRules, selectActiveUserIds, selectRoutingRules } from './routing.repository.ts';

/** A rules file refused: every problem, each with its path in the file. */
export class RoutingFileError extends Error {
  readonly problems: readonly RoutingFileProblem[];
  constructor(problems: readonly RoutingFileProblem[]) {
    super(`refused: ${problems.map((problem) => `${problem.path}: ${problem.message}`).join('; ')}`);
    this.name = 'RoutingFileError';
    this.problems = problems;
  }
}

/** User ids as stored: lower case (RFC 9562 compares them without case). */
function lowerCased(rule: RoutingRule): RoutingRule {
  const { user, round_robin } = rule.assign;
  return {
    when: rule.when,
    assign:
      user !== undefined ? { user: user.toLowerCase() } : { round_robin: round_robin!.map((id) => id.toLowerCase()) },
  };
}

function unknownUsers(rules: readonly RoutingRule[], active: ReadonlySet<string>): RoutingFileProblem[] {
  return rules.flatMap((rule, i) => {
    const { user, round_robin } = rule.assign;
    const named =
      user !== undefined
        ? [{ id: user, path: `/rules/${i}/assign/user` }]
        : (round_robin ?? []).map((id, j) => ({ id, path: `/rules/${i}/assign/round_robin/${j}` }));
    return named
      .filter(({ id }) => !active.has(id))
      .map(({ path, id }) => ({ path, message: `${id} is not an active user of the distribution` }));
  });
}

/** Replaces the distribution's rules with those of `text` (a rules file); RoutingFileError when refused. */
export async function setRoutingRules(
  db: Kysely<Database>,
  distributionId: string,
  text: string,
): Promise<RoutingRules> {
  const reading = readRoutingFile(text);
  if (reading.problems) throw new RoutingFileError(reading.problems);
  const rules = reading.rules.rules.map(lowerCased);
  return db.transaction().execute(async (trx) => {
    await requireDistribution(trx, distributionId);
    const named = [...new Set(rules.flatMap(usersOfRule))];
    const problems = unknownUsers(rules, new Set(await selectActiveUserIds(trx, distributionId, named)));
    if (problems.length > 0) throw new RoutingFileError(problems);
    const ruleSet = randomUUID();
    const createdAt = new Date().toISOString();
    await replaceRoutingRules(
      trx,
      distributionId,
      rules.map((rule, position) => ({
        distribution_id: distributionId,
        position,
        rule_set: ruleSet,
        rule: JSON.stringify(rule),
        turns: 0,
        created_at: createdAt,
      })),
    );
    return { rules };
  });
}

/** The distribution's rules, as a rules file holds them. */
export async function showRoutingRules(db: Kysely<Database>, distributionId: string): Promise<RoutingRules> {
  await requireDistribution(db, distributionId);
  const rows = await selectRoutingRules(db, distributionId);
  return { rules: rows.map((row) => JSON.parse(row.rule) as RoutingRule) };
}
