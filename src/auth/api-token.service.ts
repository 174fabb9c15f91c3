// API tokens (DESIGN.md section 4): 256 random bits, shown once, stored only as a
// SHA-256 hash. A hash is enough here (no argon2): the secret has full entropy, so there
// is nothing to brute-force, and lookups stay one indexed read.
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import type { Caller } from './caller.ts';

const TOKEN_PREFIX = 'li_';

export interface IssuedApiToken {
  readonly id: string;
  /** The secret: returned once, never stored. */
  readonly token: string;
  readonly name: string | null;
  readonly scopes: readonly string[];
  readonly distribution_id: string;
  readonly created_at: string;
  readonly expires_at: string | null;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export async function createApiToken(
  db: Kysely<Database>,
  input: { distributionId: string; scopes: readonly string[]; name?: string | null; expiresAt?: Date | null },
): Promise<IssuedApiToken> {
  const token = TOKEN_PREFIX + randomBytes(32).toString('base64url');
  const row = {
    id: randomUUID(),
    distribution_id: input.distributionId,
    name: input.name ?? null,
    token_hash: hashToken(token),
    scopes: [...new Set(input.scopes)].join(' '),
    created_at: new Date().toISOString(),
    expires_at: input.expiresAt?.toISOString() ?? null,
    revoked_at: null,
  };
  await db.insertInto('api_tokens').values(row).execute();
  return {
    id: row.id,
    token,
    name: row.name,
    scopes: row.scopes.split(' '),
    distribution_id: row.distribution_id,
    created_at: row.created_at,
    expires_at: row.expires_at,
  };
}

/** The caller a token stands for, or undefined for an unknown, revoked or expired token. */
export async function authenticateApiToken(db: Kysely<Database>, token: string, now = new Date()): Promise<Caller | undefined> {
  const hash = hashToken(token);
  const row = await db
    .selectFrom('api_tokens')
    .select(['id', 'distribution_id', 'scopes', 'token_hash', 'expires_at', 'revoked_at'])
    .where('token_hash', '=', hash)
    .executeTakeFirst();
  // The index lookup already matched; the constant-time comparison keeps the final check
  // free of timing differences all the same.
  if (!row || !timingSafeEqual(Buffer.from(row.token_hash), Buffer.from(hash))) return undefined;
  if (row.revoked_at !== null) return undefined;
  if (row.expires_at !== null && row.expires_at <= now.toISOString()) return undefined;
  return { kind: 'token', id: row.id, distributionId: row.distribution_id, scopes: row.scopes.split(' ') };
}
