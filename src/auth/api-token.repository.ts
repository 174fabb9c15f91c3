// The SQL of API tokens: the table is written by the CLI and read on every API request.
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import { run, statement } from '../db/statements.ts';
import type { ApiTokenTable } from './api-token.table.ts';

type Db = Kysely<Database>;

export async function insertApiToken(db: Db, row: ApiTokenTable): Promise<void> {
  await db.insertInto('api_tokens').values(row).execute();
}

/** Every token, or those of one distribution, oldest first. */
export async function selectApiTokens(db: Db, distributionId?: string): Promise<ApiTokenTable[]> {
  let query = db.selectFrom('api_tokens').selectAll().orderBy('created_at').orderBy('id');
  if (distributionId !== undefined) query = query.where('distribution_id', '=', distributionId);
  return query.execute();
}

/** Marks the token revoked at `at` unless it already is (the first time stays). */
export async function markRevoked(db: Db, id: string, at: string): Promise<void> {
  await db
    .updateTable('api_tokens')
    .set({ revoked_at: at })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .execute();
}

export async function findApiToken(db: Db, id: string): Promise<ApiTokenTable | undefined> {
  return db.selectFrom('api_tokens').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The ids of the tokens whose secret starts with `prefix` (at most two: one is enough to tell). */
export async function findApiTokenIdsByPrefix(db: Db, prefix: string): Promise<string[]> {
  const rows = await db.selectFrom('api_tokens').select('id').where('prefix', '=', prefix).limit(2).execute();
  return rows.map((row) => row.id);
}

export async function findApiTokenIdByHash(db: Db, tokenHash: string): Promise<string | undefined> {
  return (await db.selectFrom('api_tokens').select('id').where('token_hash', '=', tokenHash).executeTakeFirst())?.id;
}

export type TokenRow = Pick<
  ApiTokenTable,
  'id' | 'distribution_id' | 'scopes' | 'token_hash' | 'expires_at' | 'revoked_at'
>;

const tokenByHash = statement('api_token_by_hash', {
  sqlite:
    'select id, distribution_id, scopes, token_hash, expires_at, revoked_at from api_tokens where token_hash = ?1',
  postgres:
    'select id, distribution_id, scopes, token_hash, expires_at, revoked_at from api_tokens where token_hash = $1',
});

/** Every API request asks this: one prepared statement (db/statements.ts). */
export async function findTokenByHash(db: Db, tokenHash: string): Promise<TokenRow | undefined> {
  const [row] = await run<TokenRow>(db, tokenByHash, [tokenHash]);
  return row;
}
