// Every integration test runs twice: once on the embedded SQLite database and once on
// PostgreSQL (TEST_DATABASE_URL, default the local test database), like Kysely's own
// suite runs every test on every dialect.
import { configDefaults, defineConfig } from 'vitest/config';

const postgresUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export default defineConfig({
  test: {
    // 2 cores: a few files at a time keeps timings stable.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: { name: 'sqlite', include: ['test/**/*.test.ts', 'src/**/*.test.ts'], env: { TEST_DIALECT: 'sqlite' } },
      },
      {
        extends: true,
        test: {
          name: 'postgres',
          // Unit tests of pure functions need no second run.
          include: ['test/**/*.test.ts'],
          // The /docs page test drives a browser, and the pages' links and the configuration
          // table are read from files: the database behind them is irrelevant.
          exclude: [
            ...configDefaults.exclude,
            'test/docs-page.test.ts',
            'test/docs-links.test.ts',
            'test/config-table.test.ts',
          ],
          env: { TEST_DIALECT: 'postgres', TEST_DATABASE_URL: postgresUrl },
          globalSetup: ['test/support/postgres-schemas.ts'],
        },
      },
    ],
  },
});
