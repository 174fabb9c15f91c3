// The routing rules' rows (docs/design.md section 15), which db/tables.ts assembles.

export interface RoutingRuleTable {
  distribution_id: string;
  /** 0-based: the order rules are tried in. */
  position: number;
  /** The id of the `routing set` that stored the list. */
  rule_set: string;
  /** The rule as given, `{"when", "assign"}`, JSON. */
  rule: string;
  /** Leads a round-robin rule has assigned so far. */
  turns: number;
  created_at: string;
}
