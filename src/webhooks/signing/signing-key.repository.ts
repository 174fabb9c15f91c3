// The SQL of the distributions' webhook signing keys (webhook_signing_keys): at most one
// current key (no expiry) per distribution, and the retired ones until they expire.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { WebhookSigningKeyTable } from '../webhook.table.ts';

type Db = Kysely<Database>;

/** A new current key, unless the distribution has one: the partial unique index on (distribution_id) where expires_at is null decides a race. */
export async function insertKeyIfNone(db: Db, distributionId: string, secret: string, at: string): Promise<void> {
  await db
    .insertInto('webhook_signing_keys')
    .values({ id: randomUUID(), distribution_id: distributionId, secret, created_at: at, expires_at: null })
    .onConflict((conflict) => conflict.doNothing())
    .execute();
}

export async function insertCurrentKey(db: Db, distributionId: string, secret: string, at: string): Promise<void> {
  await db
    .insertInto('webhook_signing_keys')
    .values({ id: randomUUID(), distribution_id: distributionId, secret, created_at: at, expires_at: null })
    .execute();
}

/** The current key gets an expiry: it becomes a retired one. */
export async function retireCurrentKey(db: Db, distributionId: string, expiresAt: string): Promise<void> {
  await db
    .updateTable('webhook_signing_keys')
    .set({ expires_at: expiresAt })
    .where('distribution_id', '=', distributionId)
    .where('expires_at', 'is', null)
    .execute();
}

export async function deleteKeysExpiredBy(db: Db, distributionId: string, at: string): Promise<void> {
  await db
    .deleteFrom('webhook_signing_keys')
    .where('distribution_id', '=', distributionId)
    .where('expires_at', '<=', at)
    .execute();
}

/** The keys of these distributions that sign at `at`, the current one first, then the most recently retired. */
export async function selectSigningKeys(
  db: Db,
  distributionIds: readonly string[],
  at: string,
): Promise<Array<Pick<WebhookSigningKeyTable, 'distribution_id' | 'secret'>>> {
  return (
    db
      .selectFrom('webhook_signing_keys')
      .select(['distribution_id', 'secret'])
      .where('distribution_id', 'in', distributionIds)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', at)]))
      // The current key (no expiry) first, then the most recently retired.
      .orderBy((eb) => eb.case().when('expires_at', 'is', null).then(0).else(1).end())
      .orderBy('created_at', 'desc')
      .execute()
  );
}

/** One distribution's keys that sign at `at`, newest first. */
export async function selectLiveKeys(db: Db, distributionId: string, at: string): Promise<WebhookSigningKeyTable[]> {
  return db
    .selectFrom('webhook_signing_keys')
    .selectAll()
    .where('distribution_id', '=', distributionId)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', at)]))
    .orderBy('created_at', 'desc')
    .execute();
}
