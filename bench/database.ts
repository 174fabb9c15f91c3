// A fresh database per measurement, prepared the way an operator would (migrations, a
// distribution, an API token), and the environment that points the server process at it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { insertDistribution } from '../src/distributions/distribution.repository.ts';
import { createApiToken } from '../src/auth/api-token.service.ts';

export type BenchDialect = 'sqlite' | 'postgres';

export interface BenchDatabase {
  readonly dialect: BenchDialect;
  /** DATA_DIR or DATABASE_URL for the server process. */
  readonly env: Record<string, string>;
  readonly distributionId: string;
  readonly token: string;
  /** Every distribution made, the first one above included, each with a token of the scopes asked for. */
  readonly tenants: readonly { readonly distributionId: string; readonly token: string }[];
  countLeads(): Promise<number>;
  drop(): Promise<void>;
}

/** `scopes`: the tokens'; the push and PATCH scenarios need no more than the default, and one distribution. */
export async function createBenchDatabase(
  dialect: BenchDialect,
  postgresUrl: string,
  scopes: readonly string[] = ['leads:write', 'leads:read', 'parties:update'],
  distributions = 1,
): Promise<BenchDatabase> {
  const target = dialect === 'postgres' ? await createSchema(postgresUrl) : createDataDir();
  const tenants = await withHandle(target.open, async (handle) => {
    await migrateToLatest(handle.db);
    const made: { distributionId: string; token: string }[] = [];
    for (let i = 0; i < distributions; i++) {
      const distribution = await insertDistribution(handle.db, `Benchmark distribution ${i + 1}`);
      const issued = await createApiToken(handle.db, {
        distributionId: distribution.id,
        scopes: [...scopes],
        name: 'bench',
      });
      made.push({ distributionId: distribution.id, token: issued.token });
    }
    return made;
  });
  const { distributionId, token } = tenants[0]!;
  return {
    dialect,
    env: target.env,
    distributionId,
    token,
    tenants,
    countLeads: () =>
      withHandle(target.open, async (handle) => {
        const row = await handle.db
          .selectFrom('leads')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow();
        return Number(row.n);
      }),
    drop: target.drop,
  };
}

/**
 * A copy of a SQLite bench database (its file, after its server closed it): the same
 * leads, distribution and token, in a directory of its own.
 */
export async function cloneBenchDatabase(template: BenchDatabase): Promise<BenchDatabase> {
  if (template.dialect !== 'sqlite') throw new Error('only SQLite bench databases are copied');
  const target = createDataDir();
  fs.cpSync(template.env.DATA_DIR!, target.env.DATA_DIR!, { recursive: true });
  return {
    ...template,
    env: target.env,
    countLeads: () =>
      withHandle(target.open, async (handle) => {
        const row = await handle.db
          .selectFrom('leads')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow();
        return Number(row.n);
      }),
    drop: target.drop,
  };
}

interface Target {
  readonly env: Record<string, string>;
  open(): DatabaseHandle;
  drop(): Promise<void>;
}

async function withHandle<T>(open: () => DatabaseHandle, use: (handle: DatabaseHandle) => Promise<T>): Promise<T> {
  const handle = open();
  try {
    return await use(handle);
  } finally {
    await handle.close();
  }
}

function createDataDir(): Target {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lead-intake-bench-'));
  return {
    env: { DATA_DIR: dataDir },
    open: () => openDatabase({ databaseUrl: undefined, dataDir, sqliteSynchronous: 'NORMAL' }),
    drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
  };
}

/** A schema of its own in the given database; the server lands in it through libpq `options`. */
async function createSchema(url: string): Promise<Target> {
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  await adminQuery(url, `create schema ${schema}`);
  const schemaUrl = `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  return {
    env: { DATABASE_URL: schemaUrl },
    open: () => openDatabase({ databaseUrl: schemaUrl, dataDir: '', sqliteSynchronous: 'NORMAL', poolSize: 2 }),
    // The reference imports' schemas (`<schema>_<source>`,
    // src/reference/store/postgres-schemas.repository.ts) go too.
    drop: () =>
      adminQuery(
        url,
        `do $$ declare s text; begin
          for s in select nspname from pg_namespace where nspname = '${schema}' or nspname like '${schema}\\_%' loop
            execute format('drop schema %I cascade', s);
          end loop; end $$`,
      ),
  };
}

async function adminQuery(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}
