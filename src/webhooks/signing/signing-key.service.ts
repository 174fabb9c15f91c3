// The `whsec_` signing secret of each distribution (docs/design.md section 5). It is stored as
// is, not hashed: it is a key the service signs with and hands to the receiver, not a
// password to verify. A rotation keeps the previous key signing for ROTATION_OVERLAP_MS,
// so receivers can switch to the new secret without missing a message.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import { requireDistribution } from '../../distributions/distribution.service.ts';
import { generateSecret } from './signing.ts';
import {
  deleteKeysExpiredBy,
  insertCurrentKey,
  insertKeyIfNone,
  retireCurrentKey,
  selectLiveKeys,
  selectSigningKeys,
} from './signing-key.repository.ts';

type Db = Kysely<Database>;

export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

export interface SigningSecret {
  readonly distribution_id: string;
  readonly secret: string;
  readonly created_at: string;
  /** Keys a rotation retired that still sign until their expiry (secrets not shown). */
  readonly previous: ReadonlyArray<{ readonly created_at: string; readonly expires_at: string }>;
}

/** The distribution's current secret, created on first use (by whichever process asks first). */
export async function currentSecret(db: Db, distributionId: string): Promise<SigningSecret> {
  await requireDistribution(db, distributionId);
  await insertKeyIfNone(db, distributionId, generateSecret(), new Date().toISOString());
  return describeKeys(db, distributionId);
}

/** A new current secret; the previous one keeps signing for 24 hours. One transaction. */
export async function rotateSecret(db: Db, distributionId: string): Promise<SigningSecret> {
  return db.transaction().execute(async (trx) => {
    await requireDistribution(trx, distributionId);
    const now = new Date();
    await retireCurrentKey(trx, distributionId, new Date(now.getTime() + ROTATION_OVERLAP_MS).toISOString());
    // Keys past their overlap sign nothing any more: no reason to keep them.
    await deleteKeysExpiredBy(trx, distributionId, now.toISOString());
    await insertCurrentKey(trx, distributionId, generateSecret(), now.toISOString());
    return describeKeys(trx, distributionId);
  });
}

/**
 * Every secret that signs now, per distribution, the current one first. A distribution
 * without a key gets one here, so no event waits for an operator to ask for the secret.
 */
export async function signingSecrets(
  db: Db,
  distributionIds: readonly string[],
  now: Date,
): Promise<Map<string, string[]>> {
  const load = () => selectSigningKeys(db, distributionIds, now.toISOString());
  if (distributionIds.length === 0) return new Map();
  let rows = await load();
  const missing = distributionIds.filter((id) => !rows.some((row) => row.distribution_id === id));
  if (missing.length > 0) {
    for (const id of missing) await insertKeyIfNone(db, id, generateSecret(), new Date().toISOString());
    rows = await load();
  }
  const secrets = new Map<string, string[]>();
  for (const row of rows) secrets.set(row.distribution_id, [...(secrets.get(row.distribution_id) ?? []), row.secret]);
  return secrets;
}

async function describeKeys(db: Db, distributionId: string): Promise<SigningSecret> {
  const rows = await selectLiveKeys(db, distributionId, new Date().toISOString());
  const current = rows.find((row) => row.expires_at === null)!;
  return {
    distribution_id: distributionId,
    secret: current.secret,
    created_at: current.created_at,
    previous: rows
      .filter((row) => row.expires_at !== null)
      .map((row) => ({ created_at: row.created_at, expires_at: row.expires_at! })),
  };
}
