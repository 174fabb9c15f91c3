// API tokens keep the first characters of their secret (`li_` and 8 more), so that `token
// list` shows what tells a leaked token apart and `token revoke` takes it
// (docs/operations.md, "CLI"). 48 of the secret's 256 random bits: the rest still cannot
// be guessed, and the secret stays stored only as its hash. Tokens issued before have no
// prefix (null). Frozen in time: Kysely<any>, no app imports.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('api_tokens').addColumn('prefix', 'text').execute();
  await db.schema.createIndex('api_tokens_prefix').on('api_tokens').column('prefix').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('api_tokens_prefix').execute();
  await db.schema.alterTable('api_tokens').dropColumn('prefix').execute();
}
