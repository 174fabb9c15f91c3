// A real server on loopback over a fresh database of the dialect this project run is for
// (vitest.config.ts): a temporary SQLite file, or a PostgreSQL schema of its own.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { loadConfig, type Config } from '../../src/config.ts';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { buildApp, type App } from '../../src/app.ts';
import { insertDistribution } from '../../src/distributions/distribution.repository.ts';
import { createApiToken } from '../../src/auth/api-token.service.ts';
import { freePort } from './server-process.ts';
import { TestClock } from './test-clock.ts';

export const dialect = (process.env.TEST_DIALECT ?? 'sqlite') as 'sqlite' | 'postgres';

export interface TestDatabase {
  readonly env: Record<string, string>;
  readonly handle: DatabaseHandle;
  drop(): Promise<void>;
}

/** A fresh, migrated database and the environment variables that point a process at it. */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (dialect === 'postgres') {
    const url = process.env.TEST_DATABASE_URL!;
    // Dropped by the project's global teardown (test/support/postgres-schemas.ts), not here.
    const schema = `${inject('postgresSchemaPrefix')}${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    // A process started with this URL lands in the schema through libpq's `options`.
    const schemaUrl = `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
    const handle = openDatabase({ databaseUrl: schemaUrl, dataDir: '', sqliteSynchronous: 'NORMAL' });
    await migrateToLatest(handle.db);
    return {
      env: { DATABASE_URL: schemaUrl },
      handle,
      async drop() {
        await handle.close();
      },
    };
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lead-intake-test-'));
  const handle = openDatabase({ databaseUrl: undefined, dataDir, sqliteSynchronous: 'NORMAL' });
  await migrateToLatest(handle.db);
  return {
    env: { DATA_DIR: dataDir },
    handle,
    async drop() {
      await handle.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface TestServer {
  readonly url: string;
  readonly app: App;
  readonly config: Config;
  readonly database: TestDatabase;
  /** The app's clock: a test moves it past an expiry or a window instead of waiting. */
  readonly clock: TestClock;
  close(): Promise<void>;
}

export interface TestServerOptions {
  /** Where the app's logger writes, at the config's LOG_LEVEL; without it, the app logs nothing. */
  readonly logStream?: NodeJS.WritableStream;
}

export async function startTestServer(
  env: Record<string, string> = {},
  options: TestServerOptions = {},
): Promise<TestServer> {
  const database = await createTestDatabase();
  // The port is known before the app is built, so PUBLIC_URL (and the SSO issuer,
  // {PUBLIC_URL}/sso) is the address the tests actually call.
  const port = await freePort();
  const config = loadConfig({
    ...database.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL: 'silent',
    ...env,
  });
  const clock = new TestClock();
  const logger = options.logStream ? { level: config.logLevel, stream: options.logStream } : false;
  const app = await buildApp({ config, database: database.handle, clock, logger });
  const address = await app.listen({ port, host: '127.0.0.1' });
  return {
    url: address,
    app,
    config,
    database,
    clock,
    async close() {
      await app.close();
      await database.drop();
    },
  };
}

/** Re-exported: tests that start servers of their own take their ports from here too. */
export { freePort };

export interface Tenant {
  readonly distributionId: string;
  readonly token: string;
}

/** A distribution with an API token carrying the given scopes. */
export async function createTenant(handle: DatabaseHandle, scopes = ['leads:write', 'leads:read']): Promise<Tenant> {
  const distribution = await insertDistribution(handle.db, 'Test distribution');
  const token = await createApiToken(handle.db, { distributionId: distribution.id, scopes });
  return { distributionId: distribution.id, token: token.token };
}
