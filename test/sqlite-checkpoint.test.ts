// The server's SQLite connection never checkpoints inside a commit; a worker thread does
// it (src/db/sqlite/sqlite-checkpointer.ts). What an operator would notice if that broke: the
// -wal file growing without bound, and the database file never receiving the data.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { openDatabase, type DatabaseHandle } from '../src/db/database.ts';
import { eventually } from './support/eventually.ts';

const ROWS_PER_BATCH = 2_000;
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
});
