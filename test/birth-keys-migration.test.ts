// Migration 2026-11-30T04-10 (docs/api.md, "Possible duplicates"): a stored birth key (the
// date alone, the folded name beside it) becomes one key per word of the name, the date with
// the word's first two letters, as the app now writes them (duplicate-keys.ts, birthKeys);
// the other keys stay; and back. Both databases.
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as migration from '../src/db/migrations/2026-11-30T05-00_birth_keys_by_name_start.ts';
import { birthKeys } from '../src/party/index.ts';
import { insertBareParties } from './support/bare-parties.ts';
import { createTenant, createTestDatabase, type TestDatabase } from './support/test-server.ts';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

const keys = async (db: Kysely<any>) =>
  (
    await sql<{
      kind: string;
      key: string;
      party_id: string;
      name: string | null;
    }>`select kind, key, party_id, name from party_duplicate_keys order by party_id, kind, key`.execute(db)
  ).rows;

describe('birth keys by the start of each word of the name', () => {
  it('splits each stored birth key as the app keys a birth date now, and joins them back', async () => {
    const db = database.handle.db as unknown as Kysely<any>;
    const { distributionId } = await createTenant(database.handle, ['leads:write']);
    await migration.down(db);
    const parties = await insertBareParties(db, distributionId, ['a', 'b'] as const);
    const old = [
      {
        distribution_id: distributionId,
        kind: 'birth',
        key: '1980-02-29',
        party_id: parties[0],
        name: 'elise d hondt',
      },
      { distribution_id: distributionId, kind: 'email', key: 'elise@example.be', party_id: parties[0], name: null },
      { distribution_id: distributionId, kind: 'birth', key: '1971-03-02', party_id: parties[1], name: 'jan janssens' },
    ];
    await db.insertInto('party_duplicate_keys').values(old).execute();
    const before = await keys(db);

    await migration.up(db);
    const expected = [
      ...birthKeys('1980-02-29', 'elise d hondt').map((key) => ({ ...key, party_id: parties[0] })),
      { kind: 'email', key: 'elise@example.be', party_id: parties[0], name: null },
      ...birthKeys('1971-03-02', 'jan janssens').map((key) => ({ ...key, party_id: parties[1] })),
    ];
    const order = (rows: Array<{ kind: string; key: string; party_id: string }>) =>
      [...rows].sort((x, y) => `${x.party_id}${x.kind}${x.key}`.localeCompare(`${y.party_id}${y.kind}${y.key}`));
    expect(order(await keys(db))).toEqual(order(expected));

    await migration.down(db);
    expect(await keys(db)).toEqual(before);
    await migration.up(db);
  });
});
