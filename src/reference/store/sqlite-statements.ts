// The shape of a read on a SQLite reference file (sqlite-reader.ts): one request's prepared
// statements by their text, undefined while nothing was imported.
import type { StatementSync } from 'node:sqlite';
import type { Row } from './reference-store.ts';

export type Statements = (sql: string) => StatementSync | undefined;

export const rows = (statement: StatementSync | undefined, ...params: (string | number | null)[]) =>
  (statement?.all(...params) ?? []) as Row[];

export const row = (statement: StatementSync | undefined, ...params: (string | number | null)[]) =>
  statement?.get(...params) as Row | undefined;
