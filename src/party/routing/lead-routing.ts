// Routing a new lead in its creating transaction (docs/design.md section 15): the
// distribution's rules, kept per process for ROUTING_RULES_TTL_MS on the app's clock so
// that a distribution without rules pays one map lookup per push; the first matching rule
// assigns its user, or the user whose turn it is. Turns are fair across processes: after
// k·N creations each of N users has k. Only creation routes: a merge or an update never
// comes here. Where a round-robin turn comes from (docs/design.md, "Routing's turns"):
// - SQLite: the rule's counter row, advanced before the lead is written. Its one writer
//   runs one transaction at a time, so the row makes no one wait, and a creation that
//   rolls back gives its turn back with it.
// - PostgreSQL: the rule's sequence, taken once the lead's row is written (assignTurn), by
//   the statement that sets the assignee and writes the history entry. A counter row would
//   be locked from the turn to the commit, so every creation under the rule would queue
//   behind the one before (a hot row); nextval never waits. It is not transactional, so the
//   turn is taken only after the write that a raced or refused push fails at: a creation
//   that loses its race (rule 10) or is refused takes none, and only a transaction that
//   fails after its lead is written (the database lost, the process killed) skips one.
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.ts';
import type { Database, Dialect } from '../../db/database.ts';
import { StaleVersionError } from '../../db/errors.ts';
import { newRowId } from '../../db/ids.ts';
import type { LeadAggregate } from '../model/party.aggregate.ts';
import type { LeadChangeTable } from '../model/party.table.ts';
import type { FieldChange } from '../work/lead-change.ts';
import { firstMatchingRule, leadFacts, userOfTurn } from './routing-rule.ts';
import type { RoutingRule } from './routing-rules.schema.ts';
import { assignRuleTurn, selectActiveUserIds, selectRoutingRules, takeRuleTurn } from './routing.repository.ts';

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

/**
 * Who a new lead goes to, and by which rule (its 0-based position); on PostgreSQL a
 * round-robin rule's turn is taken after the lead is written (assignTurn): then no
 * assignee yet, but the rule's users and rule set.
 */
export type Routing =
  | { readonly position: number; readonly assigneeId: string }
  | { readonly position: number; readonly turnOf: { readonly users: readonly string[]; readonly ruleSet: string } };

/** The caller a routed assignment is recorded under in the lead's history: `routing:<rule number>`. */
/** Whether the lead's assignee is only known once its row is written (PostgreSQL's round-robin turn, assignTurn). */
export const takesTurnAfterWrite = (
  routing: Routing | undefined,
): routing is Extract<Routing, { readonly turnOf: unknown }> => routing !== undefined && 'turnOf' in routing;

export const routingCaller = (position: number) => `routing:${position + 1}`;

export const usersOfRule = (rule: RoutingRule): string[] =>
  rule.assign.user !== undefined ? [rule.assign.user] : [...(rule.assign.round_robin ?? [])];

export class LeadRouting {
  readonly #clock: Clock;
  readonly #dialect: Dialect;
  readonly #cache = new Map<string, LoadedRules>();

  constructor(clock: Clock, dialect: Dialect) {
    this.#clock = clock;
    this.#dialect = dialect;
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
    if (this.#dialect === 'postgres') return { position, turnOf: { users, ruleSet: loaded.ruleSet! } };
    const turn = await takeRuleTurn(db, lead.distributionId, position, loaded.ruleSet!);
    if (turn === undefined) throw this.#stale(lead.distributionId);
    return { assigneeId: userOfTurn(users, turn), position };
  }

  /**
   * PostgreSQL, once the new lead's row is written: the lead with the user whose turn it is,
   * set on its row with the history entry (routedLead's entry, in the same statement). Any
   * other routing: the lead as it is.
   */
  async assignTurn(db: Kysely<Database>, lead: LeadAggregate, routing: Routing | undefined): Promise<LeadAggregate> {
    if (!takesTurnAfterWrite(routing)) return lead;
    const { users, ruleSet } = routing.turnOf;
    const assigneeId = await assignRuleTurn(db, routingEntry(lead, routing.position), ruleSet, routing.position, users);
    if (assigneeId === undefined) throw this.#stale(lead.distributionId);
    return { ...lead, work: { ...lead.work, assigneeId } };
  }

  /** The rules were replaced since they were read: read them again, in a new attempt. */
  #stale(distributionId: string): StaleVersionError {
    this.#cache.delete(distributionId);
    return new StaleVersionError('routing rules changed');
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
 * its history as made by the rule; the lead as it was when no rule routed it or its turn
 * is taken after the write (assignTurn).
 */
export function routedLead(
  lead: LeadAggregate,
  routing: Routing | undefined,
): { lead: LeadAggregate; changeLog?: LeadChangeTable } {
  if (routing === undefined || !('assigneeId' in routing)) return { lead };
  const changes: FieldChange[] = [{ field: 'assignee', after: routing.assigneeId }];
  return {
    lead: { ...lead, work: { ...lead.work, assigneeId: routing.assigneeId } },
    changeLog: { ...routingEntry(lead, routing.position), changes: JSON.stringify(changes) },
  };
}

/** The history entry of a routed assignment but its changes: made by the rule, at the lead's creation. */
function routingEntry(lead: LeadAggregate, position: number): Omit<LeadChangeTable, 'changes'> {
  return {
    id: newRowId(),
    lead_id: lead.leadId,
    party_id: lead.partyId,
    distribution_id: lead.distributionId,
    changed_at: lead.created_at,
    caller: routingCaller(position),
    subject: 'lead',
  };
}
