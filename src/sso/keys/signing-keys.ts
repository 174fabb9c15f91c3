// The provider's signing keys (ID tokens and JWT access tokens), generated once and kept
// in the database so every process signs and verifies with the same set. `lead-intake
// sso rotate-keys` puts a new key first (it signs from then on) and keeps the previous
// ones for verification until every token they signed has expired.
//
// RS256: the algorithm OpenID Connect makes every client support (Core 1.0 section
// 15.1), so any certified client library verifies our ID tokens without configuration.
import { generateKeyPair } from 'node:crypto';
import { promisify } from 'node:util';
import { calculateJwkThumbprint, type JWK } from 'jose';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import {
  deleteSigningKeys,
  hasSigningKey,
  insertFirstSigningKey,
  insertSigningKey,
  selectKeyGenerations,
  selectPrivateJwks,
} from './signing-key.repository.ts';

export const SIGNING_ALG = 'RS256';

export type PrivateJwk = JWK & { kid: string; alg: string; use: 'sig' };

const generateRsaKeyPair = promisify(generateKeyPair);

async function newSigningKey(): Promise<PrivateJwk> {
  const { privateKey } = await generateRsaKeyPair('rsa', { modulusLength: 2048 });
  const jwk = privateKey.export({ format: 'jwk' }) as JWK;
  const kid = await calculateJwkThumbprint(jwk, 'sha256');
  return { ...jwk, kid, alg: SIGNING_ALG, use: 'sig' };
}

/** The public half of a key, as the JWKS endpoint and verifiers see it. */
export function publicJwk({ kty, n, e, kid, alg, use }: PrivateJwk): JWK {
  return { kty, n, e, kid, alg, use };
}

/** Creates the first key unless one exists; two processes starting at once create one. */
export async function ensureSigningKey(db: Kysely<Database>): Promise<void> {
  if (await hasSigningKey(db)) return;
  const key = await newSigningKey();
  await insertFirstSigningKey(db, {
    kid: key.kid,
    generation: 1,
    private_jwk: JSON.stringify(key),
    created_at: new Date().toISOString(),
  });
}

/** Every stored key, newest first: the first one signs. */
export async function loadSigningKeys(db: Kysely<Database>): Promise<PrivateJwk[]> {
  return (await selectPrivateJwks(db)).map((jwk) => JSON.parse(jwk) as PrivateJwk);
}

export interface Rotation {
  /** The new signing key. */
  readonly kid: string;
  /** Keys still published for verification. */
  readonly kept: readonly string[];
  /** Keys dropped: everything they signed has expired. */
  readonly removed: readonly string[];
}

/**
 * Adds a new signing key in front, and removes the keys that were replaced more than
 * `retentionSeconds` ago (the longest lifetime of a token they can have signed).
 */
export async function rotateSigningKeys(
  db: Kysely<Database>,
  retentionSeconds: number,
  now = new Date(),
): Promise<Rotation> {
  const key = await newSigningKey();
  return db.transaction().execute(async (trx) => {
    const rows = await selectKeyGenerations(trx);
    const created = now.toISOString();
    await insertSigningKey(trx, {
      kid: key.kid,
      generation: (rows[0]?.generation ?? 0) + 1,
      private_jwk: JSON.stringify(key),
      created_at: created,
    });
    // A key stopped signing when its successor was created.
    const cutoff = new Date(now.getTime() - retentionSeconds * 1000).toISOString();
    const removed: string[] = [];
    const kept: string[] = [];
    rows.forEach((row, index) => {
      const replacedAt = index === 0 ? created : rows[index - 1]!.created_at;
      (replacedAt <= cutoff ? removed : kept).push(row.kid);
    });
    if (removed.length > 0) await deleteSigningKeys(trx, removed);
    return { kid: key.kid, kept, removed };
  });
}
