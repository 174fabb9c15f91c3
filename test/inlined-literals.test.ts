// The inbox's PostgreSQL queries carry their values written into their text, so the planner
// plans them for those values (src/db/inlined-literals.ts): every value must come back from
// PostgreSQL exactly as it went in, whatever quotes, backslashes or placeholder-like text
// it holds, and a placeholder inside the query's own quoted text must stay text.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { runInlined } from '../src/db/inlined-literals.ts';
import { createTestDatabase, dialect, type TestDatabase } from './support/test-server.ts';

const VALUES = [
  '$1',
  '$2 $1 $10',
  "it's",
  "O''Brien",
  'back\\slash',
  "\\'",
  '\\',
  "'; drop table leads; --",
  '$$ dollar $$ $q$ quoted $q$',
  '/* not a comment */ -- nor this',
  '"double" quotes',
  "E'escape' syntax",
  'line\nbreak\ttab',
  'é ñ ß 日本語 🚗',
  '',
];

describe.runIf(dialect === 'postgres')('values inlined into a PostgreSQL query', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('come back exactly as they went in', async () => {
    const columns = VALUES.map((value, i) => sql`${value} as ${sql.ref(`v${i}`)}`);
    const query = sql<Record<string, string>>`select ${sql.join(columns)}, ${42} + 0 as n`.compile(database.handle.db);
    expect(query.parameters).toHaveLength(VALUES.length + 1);
    const [row] = await runInlined<Record<string, unknown>, Database>(database.handle.db, query);
    expect(VALUES.map((_, i) => row![`v${i}`])).toEqual(VALUES);
    expect(row!.n).toBe(42);
  });

  it('leave the query text around them as it was: `$1` in its own quoted text stays text', async () => {
    const query = sql<{ a: string; b: string }>`select '$1 and ''$2''' as a, ${'$1'} as b`.compile(database.handle.db);
    const [row] = await runInlined<{ a: string; b: string }, Database>(database.handle.db, query);
    expect(row).toEqual({ a: "$1 and '$2'", b: '$1' });
  });

  it('find rows by a value with quotes and backslashes, as the inbox filters by origin', async () => {
    const db = database.handle.db;
    const origin = "O'Brien \\ $1 broker";
    const query = sql<{
      found: string;
    }>`select x.origin as found from (values (${origin}), (${'other'})) as x(origin) where x.origin = ${origin}`.compile(
      db,
    );
    expect(await runInlined<{ found: string }, Database>(db, query)).toEqual([{ found: origin }]);
  });
});
