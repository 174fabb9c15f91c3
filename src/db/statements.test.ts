// On SQLite the hot path's statements skip Kysely's executor (statements.ts); these check
// that doing so never lets a statement see another request's uncommitted rows.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from './database.ts';
import { runCount, runText } from './statements.ts';

let dir: string;
let database: DatabaseHandle;

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'statements-'));
  database = openDatabase({ databaseUrl: '', dataDir: dir, sqliteSynchronous: 'NORMAL' });
  await runText(database.db, 'create table notes (id integer primary key, text text not null)', []);
});

afterEach(async () => {
  await database.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

it('a read from outside an open transaction waits for its commit and never sees its rows before', async () => {
  const { db } = database;
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let inserted!: () => void;
  const written = new Promise<void>((resolve) => {
    inserted = resolve;
  });
  const transaction = db.transaction().execute(async (trx) => {
    await runText(trx, 'insert into notes (text) values (?1)', ['uncommitted']);
    inserted();
    await held;
    await runText(trx, 'insert into notes (text) values (?1)', ['written after the read was sent']);
  });
  await written;

  // The read is sent while the transaction is open, and the transaction writes once more
  // after it: a read that did not wait for the commit cannot have seen that row.
  const read = runText<{ text: string }>(db, 'select text from notes', []);
  release();
  await transaction;
  expect(await read).toEqual([{ text: 'uncommitted' }, { text: 'written after the read was sent' }]);
});

it('a rolled-back transaction leaves nothing a later read could see', async () => {
  const { db } = database;
  await expect(
    db.transaction().execute(async (trx) => {
      await runText(trx, 'insert into notes (text) values (?1)', ['rolled back']);
      expect(await runText(trx, 'select text from notes', [])).toEqual([{ text: 'rolled back' }]);
      throw new Error('refused');
    }),
  ).rejects.toThrow('refused');
  expect(await runText(db, 'select text from notes', [])).toEqual([]);
});

it('counts every statement, wherever it ran', async () => {
  const { db, statements } = database;
  const before = statements.count;
  await runText(db, 'insert into notes (text) values (?1)', ['a']);
  await db.transaction().execute(async (trx) => {
    expect(await runCount(trx, 'update notes set text = ?1', ['b'])).toBe(1);
  });
  // The insert, then BEGIN, the update and COMMIT.
  expect(statements.count - before).toBe(4);
});
