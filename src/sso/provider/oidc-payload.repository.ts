// The SQL of the provider's storage (oidc_payloads): one generic table keyed by
// (model, id), read and written by oidc-adapter.ts.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { OidcPayloadTable } from '../sso.table.ts';

type Db = Kysely<Database>;

export async function upsertPayload(db: Db, row: OidcPayloadTable): Promise<void> {
  const { model: _model, id: _id, ...changes } = row;
  await db
    .insertInto('oidc_payloads')
    .values(row)
    .onConflict((conflict) => conflict.columns(['model', 'id']).doUpdateSet(changes))
    .execute();
}

/** The payload whose `column` is `value`, unless it expired before `now`. */
export async function findPayload(
  db: Db,
  model: string,
  column: 'id' | 'uid' | 'user_code',
  value: string,
  now: string,
): Promise<Pick<OidcPayloadTable, 'payload' | 'consumed_at'> | undefined> {
  return (
    db
      .selectFrom('oidc_payloads')
      .select(['payload', 'consumed_at'])
      .where('model', '=', model)
      .where(column, '=', value)
      // Expired rows are as good as gone; deleteExpiredPayloads removes them later.
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
      .executeTakeFirst()
  );
}

/** Marks the payload consumed unless it already is; false when it already was (or is gone). */
export async function markConsumed(db: Db, model: string, id: string, at: number): Promise<boolean> {
  const result = await db
    .updateTable('oidc_payloads')
    .set({ consumed_at: at })
    .where('model', '=', model)
    .where('id', '=', id)
    .where('consumed_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deletePayload(db: Db, model: string, id: string): Promise<void> {
  await db.deleteFrom('oidc_payloads').where('model', '=', model).where('id', '=', id).execute();
}

export async function deletePayloadsOfGrant(db: Db, model: string, grantId: string): Promise<void> {
  await db.deleteFrom('oidc_payloads').where('model', '=', model).where('grant_id', '=', grantId).execute();
}

/** Removes what has expired; every process runs it now and then (sso.plugin.ts), which is harmless. */
export async function deleteExpiredPayloads(db: Db, now = new Date()): Promise<number> {
  const result = await db.deleteFrom('oidc_payloads').where('expires_at', '<=', now.toISOString()).executeTakeFirst();
  return Number(result.numDeletedRows);
}
