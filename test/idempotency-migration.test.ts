// Migration 2026-11-28T02-00 (docs/design.md section 14): the key store's rows of the old
// shape (an id, and a link row per person) are carried over to one row per key that names
// its one person, links kept only for an answer that shows several; and back. Run on a real
// database of each dialect, taken down to the old shape and up again.
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as migration from '../src/db/migrations/2026-11-28T02-00_idempotency_answer_row.ts';
import { createTestDatabase, dialect, type TestDatabase } from './support/test-server.ts';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

const row = (id: string, lookup: string) => ({
  id,
  lookup,
  distribution_id: 'd1',
  fingerprint: `f-${id}`,
  state: 'done',
  status: 200,
  headers: '{}',
  body: `{"id":"${id}"}`,
  created_at: '2026-11-28T00:00:00.000Z',
  expires_at: '2026-11-29T00:00:00.000Z',
});

describe(`the key store's migration to one row per answer (${dialect})`, () => {
  it('carries each answer over with its person, links only for several, and goes back', async () => {
    // Written against Kysely<any>, as the migration is.
    const db = database.handle.db as unknown as Kysely<any>;
    await migration.down(db);
    await db
      .insertInto('idempotency_keys')
      .values([row('push', 'l-push'), row('batch', 'l-batch'), row('erasure', 'l-erasure')])
      .execute();
    await db
      .insertInto('idempotency_key_parties')
      .values([
        { key_id: 'push', distribution_id: 'd1', party_id: 'p1' },
        { key_id: 'batch', distribution_id: 'd1', party_id: 'p1' },
        { key_id: 'batch', distribution_id: 'd1', party_id: 'p2' },
      ])
      .execute();

    await migration.up(db);
    const answers = await sql<{ lookup: string; party_id: string | null; body: string }>`
      select lookup, party_id, body from idempotency_answers order by lookup`.execute(db);
    expect(answers.rows).toEqual([
      { lookup: 'l-batch', party_id: null, body: '{"id":"batch"}' },
      { lookup: 'l-erasure', party_id: null, body: '{"id":"erasure"}' },
      { lookup: 'l-push', party_id: 'p1', body: '{"id":"push"}' },
    ]);
    const links = await sql<{ lookup: string; party_id: string }>`
      select lookup, party_id from idempotency_answer_parties order by lookup, party_id`.execute(db);
    expect(links.rows).toEqual([
      { lookup: 'l-batch', party_id: 'p1' },
      { lookup: 'l-batch', party_id: 'p2' },
    ]);

    await migration.down(db);
    const back = await sql<{ key_id: string; party_id: string }>`
      select key_id, party_id from idempotency_key_parties order by key_id, party_id`.execute(db);
    expect(back.rows).toEqual([
      { key_id: 'l-batch', party_id: 'p1' },
      { key_id: 'l-batch', party_id: 'p2' },
      { key_id: 'l-push', party_id: 'p1' },
    ]);
    await migration.up(db);
  });
});
