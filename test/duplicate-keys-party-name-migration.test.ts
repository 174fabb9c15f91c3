// Migration 2026-11-30T06-00 (docs/benchmarks.md, "Possible duplicates"): on SQLite the index
// a party's own keys are found by holds their name too, so the look-up reads the party's keys
// and name from it alone (a covering index) instead of one more primary-key descent per key;
// going back restores the index on the party alone. PostgreSQL keeps its index.
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as migration from '../src/db/migrations/2026-11-30T06-00_duplicate_keys_party_name.ts';
import { sharedKeysQuery } from '../src/party/index.ts';
import { createTestDatabase, dialect, type TestDatabase } from './support/test-server.ts';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

/** How SQLite reads the party's own keys in the look-up. */
const ownKeysPlan = async () => {
  const compiled = sharedKeysQuery(database.handle.db, '00000000-0000-7000-8000-000000000000').compile();
  const plan = await sql
    .raw<{ detail: string }>(`explain query plan ${compiled.sql}`)
    .execute(database.handle.db.withoutPlugins());
  return plan.rows.map((row) => row.detail).find((detail) => /^SEARCH own /.test(detail));
};

describe.runIf(dialect === 'sqlite')('the party index of possible-duplicate keys holds the name (sqlite)', () => {
  it('reads the own keys from the index alone, and not after going back', async () => {
    const db = database.handle.db as unknown as Kysely<any>;
    expect(await ownKeysPlan()).toBe('SEARCH own USING COVERING INDEX party_duplicate_keys_party (party_id=?)');
    await migration.down(db);
    expect(await ownKeysPlan()).toBe('SEARCH own USING INDEX party_duplicate_keys_party (party_id=?)');
    await migration.up(db);
    expect(await ownKeysPlan()).toBe('SEARCH own USING COVERING INDEX party_duplicate_keys_party (party_id=?)');
  });
});
