// Routing a new lead in its creating transaction (docs/design.md section 15): the
// distribution's rules, kept per process for ROUTING_RULES_TTL_MS on the app's clock so
// that a distribution without rules pays one map lookup per push; the first matching rule
// assigns its user, or the user whose turn it is. A round-robin turn is the rule's counter
// advanced in the transaction (routing.repository.ts), so turns are fair across processes:
// after k·N creations each of N users has k. Only creation routes: a merge or an update
// never comes here.
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.ts';
import type { Database } from '../../db/database.ts';
import { StaleVersionError } from '../../db/errors.ts';
import { newRowId } from '../../db/ids.ts';
import type { LeadAggregate } from '../model/party.aggregate.ts';
import type { LeadChangeTable } from '../model/party.table.ts';
import type { FieldChange } from '../work/lead-change.ts';
import { firstMatchingRule, leadFacts, userOfTurn } from './routing-rule.ts';
import type { RoutingRule } from './routing-rules.schema.ts';
import { selectActiveUserIds, selectRoutingRules, takeRuleTurn } from './routing.repository.ts';

/** How long a process keeps a distribution's rules before it reads them again. */
export const ROUTING_RULES_TTL_MS = 10_000;

/** A rule as routing uses it: its users narrowed to the active ones, in the file's order. */
interface LoadedRule {
  readonly position: number;
  readonly rule: RoutingRule;
  readonly users: readonly string[];
}

interface LoadedRules {
  readonly ruleSet: string | undefined;
  readonly rules: readonly LoadedRule[];
  readonly loadedAt: number;
}

/** Who a new lead goes to, and by which rule (its 0-based position). */
export interface Routing {
  readonly assigneeId: string;
  readonly position: number;
}

/** The caller a routed assignment is recorded under in the lead's history: `routing:<rule number>`. */
export const routingCaller = (position: number) => `routing:${position + 1}`;

export const usersOfRule = (rule: RoutingRule): string[] =>
  rule.assign.user !== undefined ? [rule.assign.user] : [...(rule.assign.round_robin ?? [])];

export class LeadRouting {
  readonly #clock: Clock;
  readonly #cache = new Map<string, LoadedRules>();

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /** The assignment of the new `lead`, or undefined when no rule matches it. */
  async route(db: Kysely<Database>, lead: LeadAggregate): Promise<Routing | undefined> {
    const loaded = await this.#rules(db, lead.distributionId);
    if (loaded.rules.length === 0) return undefined;
    const usable = loaded.rules.filter((rule) => rule.users.length > 0);
    const index = firstMatchingRule(
      usable.map((rule) => rule.rule),
      leadFacts(lead),
    );
    if (index === undefined) return undefined;
    const { position, rule, users } = usable[index]!;
    if (rule.assign.user !== undefined) return { assigneeId: users[0]!, position };
    const turn = await takeRuleTurn(db, lead.distributionId, position, loaded.ruleSet!);
    if (turn === undefined) {
      // The rules were replaced since they were read: read them again, in a new attempt.
      this.#cache.delete(lead.distributionId);
      throw new StaleVersionError('routing rules changed');
    }
    return { assigneeId: userOfTurn(users, turn), position };
  }

  async #rules(db: Kysely<Database>, distributionId: string): Promise<LoadedRules> {
    const now = this.#clock.now();
    const cached = this.#cache.get(distributionId);
    if (cached !== undefined && now - cached.loadedAt < ROUTING_RULES_TTL_MS) return cached;
    const rows = await selectRoutingRules(db, distributionId);
    const rules = rows.map((row) => ({ position: row.position, rule: JSON.parse(row.rule) as RoutingRule }));
    const active = new Set(
      await selectActiveUserIds(db, distributionId, [...new Set(rules.flatMap(({ rule }) => usersOfRule(rule)))]),
    );
    const loaded: LoadedRules = {
      ruleSet: rows[0]?.rule_set,
      rules: rules.map((rule) => ({ ...rule, users: usersOfRule(rule.rule).filter((id) => active.has(id)) })),
      loadedAt: now,
    };
    this.#cache.set(distributionId, loaded);
    return loaded;
  }
}

/**
 * The new lead with the assignee routing chose, and the entry that puts the assignment in
 * its history as made by the rule; the lead as it was when no rule routed it.
 */
export function routedLead(
  lead: LeadAggregate,
  routing: Routing | undefined,
): { lead: LeadAggregate; changeLog?: LeadChangeTable } {
  if (routing === undefined) return { lead };
  const changes: FieldChange[] = [{ field: 'assignee', after: routing.assigneeId }];
  return {
    lead: { ...lead, work: { ...lead.work, assigneeId: routing.assigneeId } },
    changeLog: {
      id: newRowId(),
      lead_id: lead.leadId,
      party_id: lead.partyId,
      distribution_id: lead.distributionId,
      changed_at: lead.created_at,
      caller: routingCaller(routing.position),
      subject: 'lead',
      changes: JSON.stringify(changes),
    },
  };
}
