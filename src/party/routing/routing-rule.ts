// Which rule routes a new lead, and to whom (docs/design.md section 15): pure functions of
// the rules and the lead, so unit tests reach every case. The rules are tried in order and
// the first whose `when` matches assigns; a `when` key left out matches anything, and all
// given must match. A lead no rule matches stays unassigned.
import type { LeadAggregate } from '../model/party.aggregate.ts';
import type { PartyType } from '../model/party.table.ts';
import type { RoutingRule } from './routing-rules.schema.ts';

/** What rules can ask of a new lead. */
export interface LeadFacts {
  readonly origin: string | null;
  readonly kind: PartyType;
  /** The zipcode of the first residence (the first by position). */
  readonly postcode: string | null;
  readonly language: string | null;
}

export function leadFacts(lead: LeadAggregate): LeadFacts {
  const residences = lead.riskObjects.filter((object) => object.type === 'RESIDENCE');
  const first = residences.reduce<(typeof residences)[number] | undefined>(
    (found, object) => (found === undefined || object.position < found.position ? object : found),
    undefined,
  );
  const address = first?.current.data.address as { zipcode?: unknown } | undefined;
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  return {
    origin: text(lead.meta.origin),
    kind: lead.type,
    postcode: text(address?.zipcode),
    language: text(lead.fields.language),
  };
}

const folded = (postcode: string) => postcode.replace(/\s+/g, '').toUpperCase();

/**
 * Whether `postcode` is `spec`: one code, compared without spaces or case, or an inclusive
 * range of numeric codes (`1000-1299`), which only a numeric postcode falls in.
 */
export function postcodeMatches(spec: string, postcode: string): boolean {
  const range = /^(\d+)-(\d+)$/.exec(spec);
  if (!range) return folded(spec) === folded(postcode);
  const code = folded(postcode);
  if (!/^\d+$/.test(code)) return false;
  return Number(range[1]) <= Number(code) && Number(code) <= Number(range[2]);
}

export function ruleMatches(when: RoutingRule['when'], facts: LeadFacts): boolean {
  const { postcode } = facts;
  if (when.origin && (facts.origin === null || !when.origin.includes(facts.origin))) return false;
  if (when.kind && when.kind !== facts.kind) return false;
  if (when.language && (facts.language === null || !when.language.includes(facts.language))) return false;
  if (when.postcodes && (postcode === null || !when.postcodes.some((spec) => postcodeMatches(spec, postcode))))
    return false;
  return true;
}

/** The position of the first rule that matches, or undefined. */
export function firstMatchingRule(rules: readonly RoutingRule[], facts: LeadFacts): number | undefined {
  const index = rules.findIndex((rule) => ruleMatches(rule.when, facts));
  return index === -1 ? undefined : index;
}

/** Whose turn `turn` (1 for a rule's first lead) is among `users`, in their order. */
export function userOfTurn(users: readonly string[], turn: number): string {
  return users[(turn - 1) % users.length]!;
}
