// Failed sign-ins are rate limited per account and per client address (docs/design.md
// section 12; docs/sso.md, "Single sign-on"). The failures are rows in the database, so
// every process serving from one PostgreSQL counts the same attempts. The account is the
// login as typed (lower-cased), so unknown logins are limited exactly like real ones and
// the limit does not tell which accounts exist.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import {
  countFailuresSince,
  deleteFailuresOf,
  deleteFailuresUntil,
  insertFailures,
} from './login-failure.repository.ts';

export interface ThrottlePolicy {
  /** Failures per account within the window before sign-ins for it are refused. */
  readonly perAccount: number;
  /** Failures per client address within the window (many accounts from one place). */
  readonly perAddress: number;
  readonly windowMs: number;
}

export const DEFAULT_THROTTLE: ThrottlePolicy = { perAccount: 5, perAddress: 50, windowMs: 15 * 60_000 };

const subjects = (loginKey: string, address: string) => ({ account: `account:${loginKey}`, address: `ip:${address}` });

/** True when either the account or the address has used up its failures in the window. */
export async function isThrottled(
  db: Kysely<Database>,
  loginKey: string,
  address: string,
  policy: ThrottlePolicy = DEFAULT_THROTTLE,
  now = new Date(),
): Promise<boolean> {
  const since = new Date(now.getTime() - policy.windowMs).toISOString();
  const { account, address: ip } = subjects(loginKey, address);
  const rows = await countFailuresSince(db, [account, ip], since);
  const count = (subject: string) => Number(rows.find((row) => row.subject === subject)?.failures ?? 0);
  return count(account) >= policy.perAccount || count(ip) >= policy.perAddress;
}

/** Records one failure for the account and the address. */
export async function recordFailure(
  db: Kysely<Database>,
  loginKey: string,
  address: string,
  now = new Date(),
): Promise<void> {
  const { account, address: ip } = subjects(loginKey, address);
  await insertFailures(db, [account, ip], now.toISOString());
}

/**
 * Removes failures that have left the window. isThrottled ignores them anyway, so this
 * runs now and then (sso.plugin.ts) rather than on every failed sign-in.
 */
export async function deleteExpiredFailures(
  db: Kysely<Database>,
  policy: ThrottlePolicy = DEFAULT_THROTTLE,
  now = new Date(),
): Promise<void> {
  await deleteFailuresUntil(db, new Date(now.getTime() - policy.windowMs).toISOString());
}

/** A successful sign-in forgets the account's failures (not the address's). */
export async function clearAccountFailures(db: Kysely<Database>, loginKey: string): Promise<void> {
  await deleteFailuresOf(db, subjects(loginKey, '').account);
}
