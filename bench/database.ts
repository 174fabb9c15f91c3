// A fresh database per measurement: a SQLite directory, or a PostgreSQL database of its
// own (created from template0, dropped with its connections), and the environment that
// points a server process at it. It is empty until the code measured migrates it and
// issues its tokens (bench/server-code.ts), so the current tree and a baseline revision
// each get a database their own migrations made. Nothing here reads the schema beyond the
// `leads` table that every revision has.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';

export type BenchDialect = 'sqlite' | 'postgres';

/** The SQLite file every revision keeps in DATA_DIR. */
export const SQLITE_FILE = 'lead-intake.db';

export interface BenchTarget {
  readonly dialect: BenchDialect;
  /** DATA_DIR or DATABASE_URL for the server process (and the code's command line). */
  readonly env: Record<string, string>;
  countLeads(): Promise<number>;
  drop(): Promise<void>;
}

export interface Tenant {
  readonly distributionId: string;
  /** An API token of the scopes asked for, bound to that distribution. */
  readonly token: string;
}

export interface BenchDatabase extends BenchTarget {
  readonly distributionId: string;
  readonly token: string;
  /** Every distribution made, the first one above included. */
  readonly tenants: readonly Tenant[];
}

export async function createBenchTarget(dialect: BenchDialect, postgresUrl: string): Promise<BenchTarget> {
  return dialect === 'postgres' ? createPostgresDatabase(postgresUrl) : createDataDir();
}

/** A target with its tenants, once the code measured has prepared it. */
export function withTenants(target: BenchTarget, tenants: readonly Tenant[]): BenchDatabase {
  const first = tenants[0];
  if (!first) throw new Error('a bench database needs at least one distribution');
  return { ...target, distributionId: first.distributionId, token: first.token, tenants };
}

/**
 * A copy of a SQLite bench database (its file, after its server closed it): the same
 * leads, distribution and token, in a directory of its own.
 */
export async function cloneBenchDatabase(template: BenchDatabase): Promise<BenchDatabase> {
  if (template.dialect !== 'sqlite') throw new Error('only SQLite bench databases are copied');
  const target = createDataDir();
  fs.cpSync(template.env.DATA_DIR!, target.env.DATA_DIR!, { recursive: true });
  return withTenants(target, template.tenants);
}

function createDataDir(): BenchTarget {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lead-intake-bench-'));
  return {
    dialect: 'sqlite',
    // DATABASE_URL empty: never a PostgreSQL URL the bench itself was started with.
    env: { DATA_DIR: dataDir, DATABASE_URL: '' },
    countLeads: async () => {
      const db = new DatabaseSync(path.join(dataDir, SQLITE_FILE), { readOnly: true });
      try {
        return Number((db.prepare('select count(*) as n from leads').get() as { n: number }).n);
      } finally {
        db.close();
      }
    },
    drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
  };
}

/**
 * A database of its own rather than a schema in a shared one: revisions before the
 * migration tables were pinned to the connection's schema find another schema's tables.
 */
async function createPostgresDatabase(url: string): Promise<BenchTarget> {
  const name = `bench_${randomBytes(6).toString('hex')}`;
  await adminQuery(url, `create database ${name} template template0`);
  const own = new URL(url);
  own.pathname = `/${name}`;
  const databaseUrl = own.toString();
  return {
    dialect: 'postgres',
    env: { DATABASE_URL: databaseUrl },
    countLeads: async () => {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      try {
        return Number((await client.query<{ n: string }>('select count(*) as n from leads')).rows[0]!.n);
      } finally {
        await client.end();
      }
    },
    drop: () => adminQuery(url, `drop database if exists ${name} with (force)`),
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
