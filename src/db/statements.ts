// Statements of the hot paths (a push's lookups and writes), written once per dialect as
// fixed SQL text, on the same connections and transactions as every other query, and
// counted alike. Kysely would build and compile the same query on every push; here the
// text is built once, so SQLite's statement cache (node-sqlite-dialect.ts) and
// PostgreSQL's named prepared statements (database.ts) parse and plan it once per
// connection. On PostgreSQL they go through Kysely's executor; on SQLite straight to
// node:sqlite where that is safe (directSqlite below).
//
// Lists are one parameter however long: on SQLite a JSON array read with json_each(), on
// PostgreSQL an array read with unnest() or = any(). So one text serves every push, with
// one exception: the SQLite push lookup is written for the keys a push has (party/push/push-candidates.repository.ts).
import { CompiledQuery, PostgresAdapter, type Kysely } from 'kysely';
import type { Database, Dialect } from './tables.ts';

export interface Statement {
  /** Unique: PostgreSQL's prepared statement name. */
  readonly name: string;
  /** Numbered parameters: `?1` on SQLite, `$1` on PostgreSQL, in the same order. */
  readonly sql: Readonly<Record<Dialect, string>>;
}

/** Text -> name of every statement declared: database.ts prepares these, and only these, by name. */
const preparedNames = new Map<string, string>();

export function statement(name: string, sql: Readonly<Record<Dialect, string>>): Statement {
  prepared(name, sql.postgres);
  return { name, sql };
}

/** Declares a PostgreSQL text to prepare by name; returns the text. */
export function prepared(name: string, postgres: string): string {
  if ([...preparedNames.values()].includes(name)) throw new Error(`statement ${name} is declared twice`);
  preparedNames.set(postgres, name);
  return postgres;
}

/** The prepared statement name of a PostgreSQL text, if it is one of ours. */
export function preparedNameOf(text: string): string | undefined {
  return preparedNames.get(text);
}

export function dialectOf(db: Kysely<Database>): Dialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/** Runs `statement` with `parameters`; a list parameter is passed as the dialect reads lists. */
export async function run<Row>(
  db: Kysely<Database>,
  statement: Statement,
  parameters: readonly unknown[],
): Promise<Row[]> {
  const dialect = dialectOf(db);
  const values =
    dialect === 'sqlite'
      ? parameters.map((value) => (Array.isArray(value) ? JSON.stringify(value) : value))
      : parameters;
  return runText<Row>(db, statement.sql[dialect], values);
}

/** What a statement did: its rows (none for a write without RETURNING) and rows changed. */
export interface StatementResult {
  readonly rows: unknown[];
  readonly changes: number;
}

/** A SQLite connection, run synchronously as node:sqlite does. */
export interface SqliteConnection {
  execute(text: string, parameters: readonly unknown[]): StatementResult;
  /** Whether a transaction is open on it (whoever opened it). */
  readonly inTransaction: boolean;
}

// A SQLite database's connection, by the adapter its Kysely instance and every transaction
// opened from it share (a transaction is a Kysely instance of its own; the adapter is not).
const sqliteConnections = new WeakMap<object, SqliteConnection>();

/** database.ts registers each SQLite database it opens. */
export function registerSqliteConnection(db: Kysely<Database>, connection: SqliteConnection): void {
  sqliteConnections.set(db.getExecutor().adapter, connection);
}

/**
 * On SQLite a statement runs straight on node:sqlite, skipping Kysely's executor (half a
 * dozen promise hops per statement, about a sixth of a push's CPU), whenever that cannot
 * change what it sees: inside a transaction, whose connection is its own until the commit
 * (Kysely holds it; group commit runs its jobs one after another), or while no transaction
 * is open at all (the statement runs to its end before anything else can). A statement from
 * outside a transaction that is open goes through Kysely, whose connection lock makes it
 * wait for the commit instead of reading that transaction's uncommitted rows.
 */
function directSqlite(db: Kysely<Database>): SqliteConnection | undefined {
  const connection = sqliteConnections.get(db.getExecutor().adapter);
  return connection && (db.isTransaction || !connection.inTransaction) ? connection : undefined;
}

/** Runs SQL text built by this module's callers (a batch whose text depends on its size). */
export async function runText<Row>(db: Kysely<Database>, text: string, parameters: readonly unknown[]): Promise<Row[]> {
  const sqlite = directSqlite(db);
  if (sqlite) return sqlite.execute(text, parameters).rows as Row[];
  const result = await db.executeQuery<Row>(CompiledQuery.raw(text, [...parameters]));
  return result.rows;
}

/** Rows changed by an UPDATE or DELETE. */
export async function runCount(db: Kysely<Database>, text: string, parameters: readonly unknown[]): Promise<number> {
  const sqlite = directSqlite(db);
  if (sqlite) return sqlite.execute(text, parameters).changes;
  const result = await db.executeQuery(CompiledQuery.raw(text, [...parameters]));
  return Number(result.numAffectedRows ?? 0n);
}
