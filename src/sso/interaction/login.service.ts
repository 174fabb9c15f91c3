// Signing in with email or username and password (docs/design.md section 12). An unknown login, a
// wrong password and a disabled account all give the same answer, after the same work
// (an argon2 verification), so neither the message nor the timing tells them apart.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import {
  clearAccountFailures,
  isThrottled,
  recordFailure,
  type ThrottlePolicy,
  DEFAULT_THROTTLE,
} from './login-throttle.ts';
import { MAX_PASSWORD_LENGTH, verifyAgainstNoAccount, verifyPassword } from '../users/password.ts';
import type { UserTable } from '../sso.table.ts';
import { findUserByLogin, setLastLogin } from '../users/user.repository.ts';
import { loginKey } from '../users/user.service.ts';

export type SignInResult =
  | { readonly outcome: 'signed-in'; readonly user: UserTable }
  | { readonly outcome: 'invalid' }
  | { readonly outcome: 'throttled' };

export async function signIn(
  db: Kysely<Database>,
  input: { login: string; password: string; address: string },
  at = new Date(),
  policy: ThrottlePolicy = DEFAULT_THROTTLE,
): Promise<SignInResult> {
  const key = loginKey(input.login);
  if (key === '' || input.password === '' || input.password.length > MAX_PASSWORD_LENGTH) return { outcome: 'invalid' };
  // Checked before the password, so a throttled attacker learns nothing from guesses.
  if (await isThrottled(db, key, input.address, policy, at)) return { outcome: 'throttled' };
  const user = await findUserByLogin(db, key);
  const valid = user
    ? await verifyPassword(user.password_hash, input.password)
    : await verifyAgainstNoAccount(input.password);
  if (!user || !valid || user.disabled_at !== null) {
    await recordFailure(db, key, input.address, at);
    return { outcome: 'invalid' };
  }
  const now = at.toISOString();
  await db.transaction().execute(async (trx) => {
    await setLastLogin(trx, user.id, now);
    await clearAccountFailures(trx, key);
  });
  return { outcome: 'signed-in', user: { ...user, last_login: now } };
}
