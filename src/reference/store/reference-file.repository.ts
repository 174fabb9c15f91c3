// A SQLite reference file as requests read it: read-only, with prepared statements straight
// on node:sqlite (no query builder on the hot path). Each request takes the file's current
// handle once: an import renames a new file over the old one, a new handle is opened when
// the file's identity changes, and since every read is synchronous a request sees one
// version of the data from its first statement to its last.
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { StatementCache } from '../../db/sqlite/statement-cache.ts';
import type { Row } from './rows.ts';

/**
 * Statements kept per reference file. Some texts are built per query (a condition per word,
 * a placeholder per candidate), so without a bound the cache would grow with the queries
 * asked; the fixed texts of all three files are fewer than this.
 */
export const REFERENCE_STATEMENT_CACHE_SIZE = 200;

function statementCache(db: DatabaseSync | undefined): StatementCache<StatementSync> {
  return new StatementCache(REFERENCE_STATEMENT_CACHE_SIZE, (sql) => {
    if (!db) throw new Error('no reference file is open');
    return db.prepare(sql);
  });
}

/** One request's prepared statements by their text, undefined while nothing was imported. */
export type Statements = (sql: string) => StatementSync | undefined;

export const rows = (statement: StatementSync | undefined, ...params: (string | number | null)[]) =>
  (statement?.all(...params) ?? []) as Row[];

export const row = (statement: StatementSync | undefined, ...params: (string | number | null)[]) =>
  statement?.get(...params) as Row | undefined;

export class ReferenceFile {
  readonly #path: string;
  #db: DatabaseSync | undefined;
  #identity = '';
  #statements = statementCache(undefined);
  #derived = new Map<string, unknown>();

  constructor(path: string) {
    this.#path = path;
  }

  /**
   * The current file's statements, for one request: the file's identity is checked once,
   * so every statement of the request reads the same file even if an import renames a new
   * one into place meanwhile. Undefined statements while nothing was imported.
   */
  snapshot(): Statements {
    const stat = fs.statSync(this.#path, { throwIfNoEntry: false });
    const identity = stat ? `${stat.dev}:${stat.ino}:${stat.mtimeMs}` : '';
    if (identity !== this.#identity) this.#reopen(identity);
    const db = this.#db;
    const statements = this.#statements;
    return (sql) => (db ? statements.get(sql) : undefined);
  }

  /** Prepared statements kept for the file open now. */
  get cachedStatements(): number {
    return this.#statements.size;
  }

  /**
   * What requests derive from the current file, read once for all of them (a live file is
   * never written). `statement` is the request's snapshot, taken in the same synchronous
   * run, so it reads the handle this is kept for.
   */
  derived<T>(name: string, statement: Statements, read: (statement: Statements) => T): T {
    if (!this.#derived.has(name)) this.#derived.set(name, read(statement));
    return this.#derived.get(name) as T;
  }

  #reopen(identity: string): void {
    // Reads are synchronous, so no request is between two statements of the old file now.
    this.#derived = new Map();
    this.#db?.close();
    // A live file is never written: an import builds a new one and renames it over this
    // path (sqlite-files.ts), and this handle keeps the file it opened. So it is opened
    // immutable: SQLite then takes no file locks and checks for no other writer, where a
    // plain read-only handle pays some ten system calls per statement for both (an
    // enterprise lookup is six statements: 99 -> 40 µs).
    const immutable = pathToFileURL(this.#path);
    immutable.searchParams.set('immutable', '1');
    this.#db = identity ? new DatabaseSync(immutable, { readOnly: true }) : undefined;
    // Pages straight from the OS page cache through a memory map, not a read() call each:
    // a search touches hundreds of pages, and a system call costs microseconds here.
    this.#db?.exec('pragma mmap_size = 17179869184');
    // The statements of the file open now, dropped with it.
    this.#statements = statementCache(this.#db);
    this.#identity = identity;
  }

  close(): void {
    this.#reopen('');
  }
}
