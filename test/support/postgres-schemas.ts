// Global setup of the postgres test project. Each test file works in a schema of its own,
// named with this run's prefix; this teardown drops them all once every file is done (a
// file's servers may still be closing when the file ends).
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresSchemaPrefix: string;
  }
}

export default function setup(project: TestProject) {
  const prefix = `test_${randomBytes(4).toString('hex')}_`;
  project.provide('postgresSchemaPrefix', prefix);
  return async function teardown() {
    const client = new pg.Client({
      connectionString: process.env.TEST_DATABASE_URL ?? project.config.env?.TEST_DATABASE_URL,
    });
    await client.connect();
    try {
      const { rows } = await client.query<{ nspname: string }>(
        `select nspname from pg_namespace where starts_with(nspname, $1)`,
        [prefix],
      );
      for (const { nspname } of rows) await client.query(`drop schema "${nspname}" cascade`);
    } finally {
      await client.end();
    }
  };
}
