// Kysely ships a SQLite dialect written for better-sqlite3. Native addons built by `npm ci`
// on machines with an older Node do not load under Node 24, so we drive the built-in,
// dependency-free `node:sqlite` instead, adapting its statement API to the one Kysely
// expects. Statements are prepared once per SQL text and reused (statement-cache.ts):
// parsing dominates the cost of small queries.
import { DatabaseSync, type StatementSync, type SQLInputValue } from 'node:sqlite';
import {
  SqliteDialect,
  SqliteDriver,
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type SqliteDatabase,
  type SqliteStatement,
} from 'kysely';
import type { SqliteSynchronous } from '../../config.ts';
import type { StatementResult } from '../statements.ts';
import { startCheckpointer, type Checkpointer } from './sqlite-checkpointer.ts';
import { StatementCache } from './statement-cache.ts';

/** Statements kept per connection; past it, the least recently used is dropped. */
export const STATEMENT_CACHE_SIZE = 500;

export interface NodeSqliteOptions {
  /** File path, or ':memory:'. */
  readonly filename: string;
  readonly synchronous: SqliteSynchronous;
  /** Checkpoint the WAL from a worker thread instead of inside commits (default for files). */
  readonly backgroundCheckpoint?: boolean;
}

export function createNodeSqliteDialect(database: NodeSqliteDatabase): SqliteDialect {
  return new NodeSqliteDialect({ database });
}

class NodeSqliteDialect extends SqliteDialect {
  readonly #config: ConstructorParameters<typeof SqliteDialect>[0];
  constructor(config: ConstructorParameters<typeof SqliteDialect>[0]) {
    super(config);
    this.#config = config;
  }
  override createDriver(): Driver {
    return new ImmediateTransactionDriver(this.#config);
  }
}

/**
 * `BEGIN IMMEDIATE` takes the write lock up front. With a plain (deferred) BEGIN, a
 * transaction that reads first and writes later can fail with SQLITE_BUSY when another
 * process (the CLI next to a running server) wrote in between, and busy_timeout cannot
 * help with that upgrade.
 */
class ImmediateTransactionDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

export class NodeSqliteDatabase implements SqliteDatabase {
  readonly #db: DatabaseSync;
  readonly #statements: StatementCache<NodeSqliteStatement>;
  readonly #checkpointer: Checkpointer | undefined;
  #checkpointerStopped: Promise<void> | undefined;

  constructor(options: NodeSqliteOptions) {
    this.#db = new DatabaseSync(options.filename);
    this.#statements = new StatementCache(
      STATEMENT_CACHE_SIZE,
      (sql) => new NodeSqliteStatement(this.#db.prepare(sql)),
    );
    // WAL lets readers (and the CLI) work while the server writes; busy_timeout makes a
    // second process wait for the write lock instead of failing at once.
    this.#db.exec('pragma journal_mode = wal');
    this.#db.exec(`pragma synchronous = ${options.synchronous}`);
    this.#db.exec('pragma busy_timeout = 10000');
    this.#db.exec('pragma foreign_keys = on');
    // Group commit may run a request in a savepoint (transaction-runner.ts), and SQLite
    // writes every page a savepoint touches to a sub-journal first. On the default temp
    // store that is a temporary file: 30-odd pwrite calls per minimal push, about half
    // the CPU of the push's writes. In memory it costs a copy.
    this.#db.exec('pragma temp_store = memory');
    // A page cache of 64 MiB for the server's one connection instead of SQLite's 2 MB: at a
    // million parties the possible-duplicates look-up read its index pages from the OS again
    // and again (1,000,000 against 1,000 parties: 2.08x -> 1.76x the p50); pushes measured
    // the same with either (0.99-1.04x, docs/benchmarks.md). Pages are allocated as used.
    this.#db.exec('pragma cache_size = -65536');
    // An erased person's text must not stay readable in free space of the file
    // (docs/personal-data.md, "Answering an erasure request"): what a delete frees is
    // overwritten with zeros.
    this.#db.exec('pragma secure_delete = on');
    if (options.backgroundCheckpoint ?? options.filename !== ':memory:') {
      this.#db.exec('pragma wal_autocheckpoint = 0');
      this.#checkpointer = startCheckpointer({ filename: options.filename, synchronous: options.synchronous });
    }
  }

  prepare(sql: string): NodeSqliteStatement {
    return this.#statements.get(sql);
  }

  /** Prepared statements kept now (at most STATEMENT_CACHE_SIZE). */
  get cachedStatements(): number {
    return this.#statements.size;
  }

  /** A closed database counts as busy: its statements go through Kysely, which refuses them. */
  get inTransaction(): boolean {
    return !this.#db.isOpen || this.#db.isTransaction;
  }

  /** One statement, straight on the connection (db/statements.ts says when that is safe). */
  execute(sql: string, parameters: ReadonlyArray<unknown>): StatementResult {
    const statement = this.prepare(sql);
    if (statement.reader) return { rows: statement.all(parameters), changes: 0 };
    return { rows: [], changes: Number(statement.run(parameters).changes) };
  }

  /**
   * Copies the WAL back into the database file and empties it (an erasure's end): by the
   * checkpoint worker, which never runs two checkpoints at once; without one, here.
   */
  async checkpointTruncate(): Promise<boolean> {
    if (this.#checkpointer) return this.#checkpointer.truncate();
    const row = this.#db.prepare('pragma wal_checkpoint(truncate)').get() as { busy: number } | undefined;
    return row !== undefined && Number(row.busy) === 0;
  }

  /** Kysely's close is synchronous: the checkpoint worker is only told to stop here. */
  close(): void {
    this.#statements.clear();
    if (this.#db.isOpen) this.#db.close();
    this.#checkpointerStopped ??= this.#checkpointer?.stop() ?? Promise.resolve();
  }

  /**
   * Closes (if Kysely has not) and resolves once the checkpoint worker has closed its
   * connection too, so the caller may delete the files: a worker still starting up would
   * otherwise open the database again and recreate them.
   */
  async closed(): Promise<void> {
    this.close();
    await this.#checkpointerStopped;
  }
}

class NodeSqliteStatement implements SqliteStatement {
  readonly reader: boolean;
  readonly #statement: StatementSync;

  constructor(statement: StatementSync) {
    this.#statement = statement;
    // A statement that yields columns is read with all(); better-sqlite3 calls this `reader`.
    this.reader = statement.columns().length > 0;
  }

  all(parameters: ReadonlyArray<unknown>): unknown[] {
    return this.#statement.all(...toSqlite(parameters));
  }

  run(parameters: ReadonlyArray<unknown>): { changes: number | bigint; lastInsertRowid: number | bigint } {
    return this.#statement.run(...toSqlite(parameters));
  }

  iterate(parameters: ReadonlyArray<unknown>): IterableIterator<unknown> {
    return this.#statement.iterate(...toSqlite(parameters));
  }
}

/**
 * node:sqlite binds no booleans or Dates; store them as SQLite conventionally does. The
 * parameters as they are when none needs it (nearly every statement): no copy per statement.
 */
function toSqlite(parameters: ReadonlyArray<unknown>): SQLInputValue[] {
  if (!parameters.some(needsConversion)) return parameters as SQLInputValue[];
  return parameters.map((value) => {
    if (typeof value === 'boolean') return value ? 1 : 0;
    if (value instanceof Date) return value.toISOString();
    if (value === undefined) return null;
    return value as SQLInputValue;
  });
}

const needsConversion = (value: unknown): boolean =>
  typeof value === 'boolean' || value instanceof Date || value === undefined;
