// The SQLite connection's statement cache (statement-cache.ts) on a real node:sqlite
// connection: texts built per request never make it hold more than STATEMENT_CACHE_SIZE.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { NodeSqliteDatabase, STATEMENT_CACHE_SIZE } from './node-sqlite-dialect.ts';

let dir: string;
let database: NodeSqliteDatabase;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'statement-cache-'));
  database = new NodeSqliteDatabase({ filename: path.join(dir, 'test.db'), synchronous: 'NORMAL' });
  database.execute('create table notes (id integer primary key)', []);
});

afterEach(async () => {
  await database.closed();
  fs.rmSync(dir, { recursive: true, force: true });
});

it(`holds at most ${STATEMENT_CACHE_SIZE} statements, however many texts run`, () => {
  const hot = database.prepare('select count(*) as n from notes');
  // One placeholder per item, as a query over a list a client sent is written.
  for (let items = 1; items <= STATEMENT_CACHE_SIZE * 2; items++) {
    const placeholders = Array.from({ length: items }, () => '?').join(', ');
    database.execute(
      `select id from notes where id in (${placeholders})`,
      Array.from({ length: items }, (_, i) => i),
    );
    database.execute('select count(*) as n from notes', []);
  }
  expect(database.cachedStatements).toBe(STATEMENT_CACHE_SIZE);
  // The text run all along was never dropped for the one-off texts.
  expect(database.prepare('select count(*) as n from notes')).toBe(hot);
});
