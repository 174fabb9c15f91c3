// Runs in a worker thread (see sqlite-checkpointer.ts): copies committed WAL frames back
// into the database file with its own connection, so that work and its fsyncs happen off
// the server's event loop. PASSIVE never waits for, nor blocks, the server's readers and
// writer; frames it cannot copy yet are copied on a later round.
//
// PASSIVE alone never starts the WAL over while writes go on: SQLite writes the WAL from its
// start again only when a write begins with every frame copied back, and under sustained
// pushes a commit always lands between a round's end and the next write. The WAL then grew by
// every frame written (1.5 GB in a 30 s benchmark, and on until the writes paused). So once
// a round leaves restartFrames or more in the WAL, a FULL checkpoint follows: it takes the
// write lock, copies the few frames committed since the PASSIVE round and syncs the file,
// and the server's next write, finding every frame copied, starts the WAL over itself.
// Not RESTART, which starts it over from this connection: the server's connection then
// finds the WAL changed under it and empties its page cache (a merge took 15% more of the
// main thread's CPU, 280 -> 330 µs, in two 10 s rounds). The FULL waits 10 ms at most
// (busy_timeout) for the lock and for readers: with the write lock taken, a longer wait for
// a reader (another process's export, say) would be as long a wait of the server's next
// write, on its event loop; busy, it gives up until the next round. So a write waits, once
// per restartFrames written, for the copy of the frames committed during the PASSIVE round
// and one fsync of the database file (docs/benchmarks.md).
import { DatabaseSync } from 'node:sqlite';
import { parentPort, workerData } from 'node:worker_threads';
import type { SqliteSynchronous } from '../../config.ts';

interface CheckpointWorkerData {
  readonly filename: string;
  readonly intervalMs: number;
  readonly restartFrames: number;
  readonly synchronous: SqliteSynchronous;
}

const { filename, intervalMs, restartFrames, synchronous } = workerData as CheckpointWorkerData;
const db = new DatabaseSync(filename);
db.exec(`pragma synchronous = ${synchronous}`);
const checkpoint = db.prepare('pragma wal_checkpoint(passive)');
const catchUp = db.prepare('pragma wal_checkpoint(full)');
const waitForLocks = db.prepare('pragma busy_timeout = 1000');
const waitBriefly = db.prepare('pragma busy_timeout = 10');
waitForLocks.get();

function catchUpWaitingBriefly(): void {
  waitBriefly.get();
  try {
    catchUp.get();
  } finally {
    waitForLocks.get();
  }
}

const timer = setInterval(() => {
  try {
    // `log`: the frames in the WAL. A FULL that finds the write lock taken or a reader on an
    // older snapshot answers busy and leaves it to a later round.
    const { log } = checkpoint.get() as { log: number };
    if (Number(log) >= restartFrames) catchUpWaitingBriefly();
  } catch (error) {
    // SQLITE_BUSY and the like: the next round tries again. Anything else is reported.
    parentPort?.postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
}, intervalMs);

/**
 * A TRUNCATE checkpoint on request (an erasure's end, party/privacy/physical-erasure.repository.ts): copies every
 * frame back and empties the WAL. Run here, it never meets this thread's own passive rounds;
 * a checkpoint of another process, or a reader that has not moved on yet, makes it busy for
 * a moment, and it tries again within TRUNCATE_PATIENCE_MS.
 */
const truncate = db.prepare('pragma wal_checkpoint(truncate)');
const TRUNCATE_PATIENCE_MS = 5_000;

function truncateNow(): boolean {
  const deadline = Date.now() + TRUNCATE_PATIENCE_MS;
  for (;;) {
    try {
      const row = truncate.get() as { busy: number } | undefined;
      if (row !== undefined && Number(row.busy) === 0) return true;
    } catch {
      // SQLITE_BUSY (another process's checkpoint): as busy.
    }
    if (Date.now() > deadline) return false;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
  }
}

parentPort?.on('message', (message: unknown) => {
  if (typeof message === 'object' && message !== null && 'truncate' in message) {
    parentPort?.postMessage({ truncated: (message as { truncate: number }).truncate, complete: truncateNow() });
    return;
  }
  if (message !== 'stop') return;
  clearInterval(timer);
  // One last round so a clean shutdown leaves a short WAL behind.
  try {
    checkpoint.get();
  } catch {
    // The server's connection closes next and checkpoints itself.
  }
  db.close();
  parentPort?.close();
});
