// Rule 10 across processes (docs/design.md sections 2 and 9). Two pushes that name the same
// party, or the same client-chosen ids, refs or VINs, must run one after the other, or the
// second one's matching reads before the first commits and then finds the first one's
// new rows "owned by another party" (409). In one SQLite process the single writer already
// orders them; on PostgreSQL every push first takes transaction-scoped advisory locks on
// the keys it could match or claim, in one statement and in sorted order, so two pushes
// never deadlock and a later one reads (READ COMMITTED: a fresh snapshot per statement)
// what the earlier one committed. Unrelated pushes share no key and never wait.
import { createHash } from 'node:crypto';
import { type Kysely, PostgresAdapter, sql } from 'kysely';
import type { Database } from '../db/database.ts';
import type { LeadBody } from './lead.schema.ts';
import type { Fields } from './party.aggregate.ts';
import { customerMatchKey } from './merge.ts';
import { prospectRefsWithTargets } from './push.ts';

export async function lockPushKeys(db: Kysely<Database>, distributionId: string, body: LeadBody): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  const keys = [...new Set(pushKeys(body))].map((key) => advisoryKey(distributionId, key)).sort();
  if (keys.length === 0) return;
  await sql`select pg_advisory_xact_lock(k) from unnest(${keys}::bigint[]) as k order by k`.execute(db);
}

/** Every value by which this push could find a party or claim a row another push could also claim. */
function pushKeys(body: LeadBody): string[] {
  const prospect = body.prospect;
  const keys: string[] = [];
  if (prospect.id) keys.push(`party:${prospect.id}`);
  for (const { ref } of prospectRefsWithTargets(prospect)) keys.push(`party-ref:${ref.company ?? ''}:${ref.ref}`);
  const matchKey = 'first_name' in prospect ? customerMatchKey(prospect as Fields) : null;
  if (matchKey) keys.push(`match:${matchKey}`);
  for (const car of prospect.risk_objects?.cars ?? []) {
    if (car.id) keys.push(`risk-object:${car.id}`);
    if (car.vin) keys.push(`vin:${car.vin}`);
  }
  for (const residence of prospect.risk_objects?.residences ?? []) if (residence.id) keys.push(`risk-object:${residence.id}`);
  for (const pkg of prospect.policy_packages ?? []) if (pkg.id) keys.push(`package:${pkg.id}`);
  for (const policy of prospect.insurance_policies ?? []) {
    for (const ref of policy.external_refs ?? []) keys.push(`policy-ref:${ref.company ?? ''}:${ref.ref}`);
  }
  return keys;
}

/** A signed 64-bit key: a collision only makes two unrelated pushes wait for each other. */
function advisoryKey(distributionId: string, key: string): string {
  return createHash('sha256').update(`${distributionId}\0${key}`).digest().readBigInt64BE(0).toString();
}
