// The server's SQLite connection never checkpoints inside a commit; a worker thread does
// it (src/db/sqlite/sqlite-checkpointer.ts). What an operator would notice if that broke: the
// -wal file growing without bound, and the database file never receiving the data.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DatabaseSync } from 'node:sqlite';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { sql } from 'kysely';
import { openDatabase, type DatabaseHandle } from '../src/db/database.ts';
import { startCheckpointer } from '../src/db/sqlite/sqlite-checkpointer.ts';
import { eventually } from './support/eventually.ts';

const ROWS_PER_BATCH = 2_000;
const ROWS_PER_COMMIT = 250;
const COMMITS = 500;
let handle: DatabaseHandle | undefined;
let dataDir: string | undefined;

afterEach(async () => {
  await handle?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe.runIf(process.env.TEST_DIALECT !== 'postgres')('SQLite WAL checkpoints', () => {
  it('copies committed data into the database file and keeps reusing a bounded WAL', async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lead-intake-checkpoint-'));
    handle = openDatabase({ databaseUrl: undefined, dataDir, sqliteSynchronous: 'NORMAL' });
    const file = path.join(dataDir, 'lead-intake.db');
    const size = (name: string) => (fs.existsSync(name) ? fs.statSync(name).size : 0);
    const { rows } = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(handle.db);
    expect(rows[0]?.wal_autocheckpoint).toBe(0);

    await sql`create table filler (id integer primary key, text text not null)`.execute(handle.db);
    const writeBatch = async (batch: number) => {
      await handle!.db.transaction().execute(async (trx) => {
        for (let i = 0; i < ROWS_PER_BATCH; i += 1) {
          await sql`insert into filler (text) values (${`${batch}-${i}-${'x'.repeat(400)}`})`.execute(trx);
        }
      });
    };

    await writeBatch(0);
    const before = size(file);
    // About 1 MB went into the WAL; only a checkpoint moves it into the database file.
    await eventually(async () => size(file) > before + 500_000, 15_000, 'the database file to receive the first batch');

    const walSizes: number[] = [];
    for (let batch = 1; batch <= 6; batch += 1) {
      const fileBefore = size(file);
      await writeBatch(batch);
      await eventually(async () => size(file) > fileBefore + 500_000, 15_000, `batch ${batch} to be checkpointed`);
      walSizes.push(size(`${file}-wal`));
    }
    // Once every frame is copied back, the next transaction writes the WAL from its start
    // again: six more batches leave it about one batch long, not six.
    expect(Math.max(...walSizes)).toBeLessThan(3 * walSizes[0]!);
    const { rows: count } = await sql<{ n: number }>`select count(*) as n from filler`.execute(handle.db);
    expect(count[0]?.n).toBe(7 * ROWS_PER_BATCH);
  });

  // Under pushes that never pause, a commit always lands between a PASSIVE round and the
  // next write, and SQLite never started the WAL over: it grew by every frame written (1.5
  // GB in a 30 s benchmark; here all 65 MB). Once it is long enough, the checkpointer copies
  // every frame back under the write lock, and the next write starts it over.
  it('starts the WAL over while writes never pause', async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lead-intake-checkpoint-'));
    const file = path.join(dataDir, 'lead-intake.db');
    const writer = new DatabaseSync(file);
    writer.exec('pragma journal_mode = wal');
    writer.exec('pragma wal_autocheckpoint = 0');
    writer.exec('pragma busy_timeout = 10000');
    writer.exec('create table filler (id integer primary key, text text not null)');
    const insert = writer.prepare('insert into filler (text) values (?)');
    const checkpointer = startCheckpointer({
      filename: file,
      synchronous: 'NORMAL',
      intervalMs: 100,
      restartFrames: 256,
    });
    // The WAL header's checkpoint sequence number (bytes 12-15) grows by one each time the
    // WAL starts over, as the first frame after that is written.
    const header = Buffer.alloc(16);
    const startsOver = () => {
      const fd = fs.openSync(`${file}-wal`, 'r');
      try {
        fs.readSync(fd, header, 0, 16, 0);
      } finally {
        fs.closeSync(fd);
      }
      return header.readUInt32BE(12);
    };
    try {
      const first = startsOver();
      // A commit every turn, as the group commit writes under load, and between two commits a
      // millisecond of the turn's other work (requests parsed, checked, answered).
      for (let committed = 0; committed < COMMITS; committed += 1) {
        writer.exec('begin immediate');
        for (let i = 0; i < ROWS_PER_COMMIT; i += 1) insert.run(`${committed}-${i}-${'x'.repeat(400)}`);
        writer.exec('commit');
        const busyUntil = performance.now() + 1;
        while (performance.now() < busyUntil);
        await nextTurn();
      }
      // 10 to 14 times here (each round that found 256 frames or more, unless busy); never without it.
      expect(startsOver() - first).toBeGreaterThanOrEqual(2);
      expect(writer.prepare('select count(*) as n from filler').get()).toEqual({ n: COMMITS * ROWS_PER_COMMIT });
    } finally {
      await checkpointer.stop();
      writer.close();
    }
  });
});
