// Migration 2026-11-30T03-00 (docs/benchmarks.md, "Possible duplicates"): on SQLite the
// possible-duplicate keys move into a WITHOUT ROWID table, every row kept, and the look-up
// finds the same parties; going back restores the rowid table with the same rows.
// PostgreSQL keeps its table: nothing to do there.
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as migration from '../src/db/migrations/2026-11-30T03-00_duplicate_keys_clustered.ts';
import { insertBareParties } from './support/bare-parties.ts';
import { createTenant, createTestDatabase, dialect, type TestDatabase } from './support/test-server.ts';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

const tableSql = async (db: Kysely<any>) =>
  (
    await sql<{
      sql: string;
    }>`select sql from sqlite_master where type = 'table' and name = 'party_duplicate_keys'`.execute(db)
  ).rows[0]!.sql;

const keys = async (db: Kysely<any>) =>
  db.selectFrom('party_duplicate_keys').selectAll().orderBy('kind').orderBy('key').orderBy('party_id').execute();

describe.runIf(dialect === 'sqlite')('possible-duplicate keys clustered by their key (sqlite)', () => {
  it('keeps every key and its name through the rebuild, both ways', async () => {
    const db = database.handle.db as unknown as Kysely<any>;
    const { distributionId } = await createTenant(database.handle, ['leads:write']);
    await migration.down(db);
    expect(await tableSql(db)).not.toMatch(/without rowid/i);
    const parties = await insertBareParties(db, distributionId, ['a', 'b', 'c'] as const);
    await db
      .insertInto('party_duplicate_keys')
      .values([
        {
          distribution_id: distributionId,
          kind: 'birth',
          key: '1971-03-02',
          party_id: parties[0],
          name: 'jan peeters',
        },
        { distribution_id: distributionId, kind: 'birth', key: '1971-03-02', party_id: parties[1], name: 'jan peters' },
        { distribution_id: distributionId, kind: 'email', key: 'jan@example.be', party_id: parties[2], name: null },
      ])
      .execute();
    const before = await keys(db);

    await migration.up(db);
    expect(await tableSql(db)).toMatch(/without rowid/i);
    expect(await keys(db)).toEqual(before);
    const index = await sql<{ name: string }>`select name from sqlite_master where type = 'index'
      and tbl_name = 'party_duplicate_keys' and name = 'party_duplicate_keys_party'`.execute(db);
    expect(index.rows).toHaveLength(1);

    await migration.down(db);
    expect(await tableSql(db)).not.toMatch(/without rowid/i);
    expect(await keys(db)).toEqual(before);
    await migration.up(db);
  });
});
