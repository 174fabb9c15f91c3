// Migration 2026-11-29T06-50 (docs/design.md, "Routing's turns"): on PostgreSQL each stored
// routing rule gets its turn sequence, going on from the turns its counter row has given,
// so the next lead after the upgrade goes to the user after the last one; and back.
// SQLite keeps the counter: nothing to do there.
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as migration from '../src/db/migrations/2026-11-29T06-50_routing_turn_sequences.ts';
import { createTenant, createTestDatabase, dialect, type TestDatabase } from './support/test-server.ts';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

const RULE_SET = '0f0e0d0c-0b0a-4908-8706-050403020100';

describe.runIf(dialect === 'postgres')('routing turns moved to sequences (postgres)', () => {
  it('gives each stored rule a sequence that goes on after its counter, and drops them going back', async () => {
    const db = database.handle.db as unknown as Kysely<any>;
    const { distributionId } = await createTenant(database.handle, ['leads:write']);
    await migration.down(db);
    await db
      .insertInto('routing_rules')
      .values(
        [0, 1].map((position) => ({
          distribution_id: distributionId,
          position,
          rule_set: RULE_SET,
          rule: '{}',
          turns: position === 0 ? 7 : 0,
          created_at: '2026-11-28T00:00:00.000Z',
        })),
      )
      .execute();

    await migration.up(db);
    const next = async (position: number) =>
      Number(
        (
          await sql<{
            turn: string;
          }>`select nextval(${`routing_turns_0f0e0d0c0b0a49088706050403020100_${position}`}::regclass) as turn`.execute(
            db,
          )
        ).rows[0]!.turn,
      );
    expect([await next(0), await next(1)]).toEqual([8, 1]);

    await migration.down(db);
    const left = await sql<{ n: string }>`
      select count(*) as n from pg_class where relkind = 'S' and relname like 'routing_turns_%'
        and relnamespace = current_schema()::regnamespace`.execute(db);
    expect(Number(left.rows[0]!.n)).toBe(0);
    await migration.up(db);
  });
});
