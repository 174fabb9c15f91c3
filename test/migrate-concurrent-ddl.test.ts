// Migrations at start-up while other sessions change the schema of the same PostgreSQL
// database (docs/design.md section 9): another deployment's or test run's schema, or a
// reference import building and swapping its tables. Kysely's own introspector read the
// columns of every schema before the migrator ran anything, and a column dropped in another
// schema between its catalogue snapshot and its per-column lookups failed that read, and the
// start-up with it (seen in CI: `column "key" of relation "street__s…" does not exist`).
// Here another schema's columns are dropped and added back without pause while fresh schemas
// are migrated; Kysely's introspector failed most of these start-ups.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { dialect } from './support/test-server.ts';

const url = process.env.TEST_DATABASE_URL!;
const inSchema = (schema: string) =>
  `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
const TABLES = 40;
const START_UPS = 6;

describe.runIf(dialect === 'postgres')('migrations while another schema drops columns', () => {
  const suffix = randomBytes(4).toString('hex');
  const busy = `ddl_busy_${suffix}`;
  const fresh = Array.from({ length: START_UPS }, (_, i) => `ddl_fresh_${suffix}_${i}`);
  let admin: pg.Client;

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const columns = Array.from({ length: 20 }, (_, i) => `c${i} text`).join(', ');
    const tables = Array.from({ length: TABLES }, (_, i) => `create table ${busy}.t${i} (${columns});`).join('\n');
    await admin.query(`create schema ${busy}; ${tables}`);
    for (const schema of fresh) await admin.query(`create schema ${schema}`);
  });
  afterAll(async () => {
    for (const schema of [busy, ...fresh]) await admin?.query(`drop schema if exists ${schema} cascade`);
    await admin?.end();
  });

  it('runs every start-up', async () => {
    const churn = new pg.Client({ connectionString: url });
    await churn.connect();
    let stop = false;
    const churning = (async () => {
      for (let i = 0; !stop; i++) {
        const table = `${busy}.t${i % TABLES}`;
        await churn.query(`alter table ${table} drop column c${i % 20}`);
        await churn.query(`alter table ${table} add column c${i % 20} text`);
      }
    })();
    const outcomes: string[] = [];
    try {
      for (const schema of fresh) {
        const database = openDatabase({ databaseUrl: inSchema(schema), dataDir: '', sqliteSynchronous: 'NORMAL' });
        try {
          const applied = await migrateToLatest(database.db);
          outcomes.push(applied.length > 0 ? 'migrated' : 'nothing applied');
        } catch (error) {
          outcomes.push(`failed: ${(error as Error).message}`);
        } finally {
          await database.close();
        }
      }
    } finally {
      stop = true;
      await churning;
      await churn.end();
    }
    expect(outcomes).toEqual(fresh.map(() => 'migrated'));
  });
});
