// Passwords are stored as argon2id hashes (@node-rs/argon2's default algorithm and
// parameters: 19 MiB, 2 passes, 1 lane, OWASP's recommended minimum).
import { hash, verify } from '@node-rs/argon2';
import { randomBytes } from 'node:crypto';

export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 1024;

export async function hashPassword(password: string): Promise<string> {
  return hash(password);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    // A malformed stored hash matches nothing.
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * Spends the time a real verification would when the account does not exist, so the
 * answer time does not tell an attacker which logins are real. Always false.
 */
export async function verifyAgainstNoAccount(password: string): Promise<false> {
  dummyHash ??= hash(randomBytes(32).toString('base64url'));
  await verifyPassword(await dummyHash, password);
  return false;
}
