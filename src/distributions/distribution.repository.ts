import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import type { DistributionTable } from './distribution.table.ts';

export async function insertDistribution(db: Kysely<Database>, name: string): Promise<DistributionTable> {
  const row: DistributionTable = { id: randomUUID(), name, created_at: new Date().toISOString() };
  await db.insertInto('distributions').values(row).execute();
  return row;
}

/** Inserts the row unless its id exists already; true when this call inserted it. */
export async function insertDistributionIfAbsent(db: Kysely<Database>, row: DistributionTable): Promise<boolean> {
  const result = await db
    .insertInto('distributions')
    .values(row)
    .onConflict((conflict) => conflict.column('id').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function findDistribution(db: Kysely<Database>, id: string): Promise<DistributionTable | undefined> {
  return db.selectFrom('distributions').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function listDistributions(db: Kysely<Database>): Promise<DistributionTable[]> {
  return db.selectFrom('distributions').selectAll().orderBy('created_at').orderBy('id').execute();
}

export async function hasAnyDistribution(db: Kysely<Database>): Promise<boolean> {
  const row = await db.selectFrom('distributions').select('id').limit(1).executeTakeFirst();
  return row !== undefined;
}
