// The readiness probe's SQL: the cheapest statement that needs the database to answer.
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/database.ts';

export async function selectOne(db: Kysely<Database>): Promise<void> {
  await sql`select 1`.execute(db);
}
