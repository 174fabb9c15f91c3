// One query layer over two engines: the embedded SQLite file by default, PostgreSQL when
// DATABASE_URL says so (docs/design.md section 1).
import fs from 'node:fs';
import path from 'node:path';
import { Kysely } from 'kysely';
import pg from 'pg';
import type { Config } from '../config.ts';
import { NodeSqliteDatabase, createNodeSqliteDialect } from './sqlite/node-sqlite-dialect.ts';
import { CurrentSchemaPostgresDialect } from './current-schema-introspector.ts';
import { preparedNameOf, registerSqliteConnection } from './statements.ts';
import type { DB, Database, Dialect } from './tables.ts';

export type { Database, DB, Dialect } from './tables.ts';

export interface DatabaseHandle {
  readonly db: DB;
  readonly dialect: Dialect;
  /** Human-readable location for logs, without credentials. */
  readonly location: string;
  /** Statements sent since the database was opened (`/metrics`; the benchmark's per-push count). */
  readonly statements: StatementCount;
  /** SQLite: copy the WAL back into the database file and empty it; true when done. */
  readonly checkpointTruncate?: () => Promise<boolean>;
  close(): Promise<void>;
}

export interface StatementCount {
  count: number;
}

/**
 * A pg client that sends the statements declared in statements.ts as named prepared
 * statements: PostgreSQL parses and plans each once per connection instead of on every
 * push (a push's inserts are one statement of ten WITH queries). Every other query goes
 * as before, unnamed. Behind a pooler that does not keep prepared statements per client
 * (PgBouncer in transaction mode before 1.21), set DATABASE_PREPARED_STATEMENTS=false.
 */
class PreparingClient extends pg.Client {
  // pg's query() has many overloads; Kysely uses query(text, values).
  // biome-ignore lint/suspicious/noExplicitAny: forwards pg's own overloads unchanged
  override query(...args: any[]): any {
    const [text, values] = args;
    const name = typeof text === 'string' && Array.isArray(values) ? preparedNameOf(text) : undefined;
    return name === undefined ? super.query(...(args as [string])) : super.query({ name, text, values });
  }
}

/** Kysely calls `log` once per executed statement, failed ones included. */
function countingLog(statements: StatementCount): () => void {
  return () => {
    statements.count++;
  };
}

export type DatabaseOptions = Pick<Config, 'databaseUrl' | 'dataDir' | 'sqliteSynchronous'> &
  Partial<Pick<Config, 'databasePreparedStatements' | 'poolSize'>> & {
    /** PostgreSQL schema to use instead of `public` (tests isolate themselves this way). */
    readonly postgresSchema?: string;
    /** SQLite: false checkpoints inside this connection's commits rather than in a thread of its own (the webhook thread's second connection). */
    readonly sqliteBackgroundCheckpoint?: boolean;
  };

export function openDatabase(options: DatabaseOptions): DatabaseHandle {
  if (options.databaseUrl) {
    const url = new URL(options.databaseUrl);
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
      ...(options.databasePreparedStatements === false ? {} : { Client: PreparingClient }),
      ...(options.postgresSchema ? { options: `-c search_path=${options.postgresSchema}` } : {}),
    });
    const settings = [
      // JIT compilation pays off for long analytical queries. Ours stop at a page, but the
      // planner estimates a reference search large (tiers it may never run), and compiling
      // it took 120 ms of a 13 ms search.
      'set jit = off',
    ];
    if (options.databasePreparedStatements !== false) {
      // Our prepared statements are written for plans that do not depend on their values
      // (lists drive index lookups): plan each once per connection, not on every push
      // (a push's lookup took 0.4 ms to plan and 0.07 ms to run).
      settings.push('set plan_cache_mode = force_generic_plan');
    }
    // One query, sent before any other on the connection. A server that refuses a setting
    // still answers every query, as it would without them.
    pool.on('connect', (client) => void client.query(settings.join('; ')).catch(() => undefined));
    const statements = { count: 0 };
    const db = new Kysely<Database>({
      dialect: new CurrentSchemaPostgresDialect({ pool }),
      log: countingLog(statements),
    });
    return {
      db,
      statements,
      dialect: 'postgres',
      location: `postgres://${url.host}${url.pathname}${options.postgresSchema ? `#${options.postgresSchema}` : ''}`,
      close: () => db.destroy(),
    };
  }
  fs.mkdirSync(options.dataDir, { recursive: true });
  const filename = path.join(options.dataDir, 'lead-intake.db');
  const sqlite = new NodeSqliteDatabase({
    filename,
    synchronous: options.sqliteSynchronous,
    ...(options.sqliteBackgroundCheckpoint !== undefined && {
      backgroundCheckpoint: options.sqliteBackgroundCheckpoint,
    }),
  });
  const statements = { count: 0 };
  const db = new Kysely<Database>({ dialect: createNodeSqliteDialect(sqlite), log: countingLog(statements) });
  registerSqliteConnection(db, {
    execute: (text, parameters) => {
      statements.count++;
      return sqlite.execute(text, parameters);
    },
    get inTransaction() {
      return sqlite.inTransaction;
    },
  });
  return {
    db,
    statements,
    dialect: 'sqlite',
    location: filename,
    checkpointTruncate: () => sqlite.checkpointTruncate(),
    close: async () => {
      await db.destroy();
      await sqlite.closed();
    },
  };
}
