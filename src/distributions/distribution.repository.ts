import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import type { DistributionTable } from './distribution.table.ts';

export async function insertDistribution(db: Kysely<Database>, name: string): Promise<DistributionTable> {
  const row: DistributionTable = { id: randomUUID(), name, created_at: new Date().toISOString() };
  await db.insertInto('distributions').values(row).execute();
  return row;
}

export async function findDistribution(db: Kysely<Database>, id: string): Promise<DistributionTable | undefined> {
  return db.selectFrom('distributions').selectAll().where('id', '=', id).executeTakeFirst();
}
