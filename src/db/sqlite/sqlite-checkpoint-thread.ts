// Runs in a worker thread (see sqlite-checkpointer.ts): copies committed WAL frames back
// into the database file with its own connection, so that work and its fsyncs happen off
// the server's event loop. PASSIVE never waits for, nor blocks, the server's readers and
// writer; frames it cannot copy yet are copied on a later round.
//
// PASSIVE alone never starts the WAL over while writes go on: SQLite writes the WAL from its
// start again only when a write begins with every frame copied back, and under sustained
// pushes a commit always lands between a round's end and the next write. The WAL then grew by
// every frame written (150 MB in a 10 s benchmark, and on until the writes paused), and
// each read's look-up of a page in the WAL index grew with it. So once a round leaves the
// WAL at restartFrames or more, a RESTART checkpoint follows: it takes the write lock, copies
// the few frames committed since the PASSIVE round and starts the WAL over once no reader is
// in it. It waits 10 ms at most (busy_timeout), for the lock and for readers: with the write
// lock taken, a long wait for a reader to leave the WAL (another process's export, say)
// would be as long a wait of the server's next write, on its event loop. Busy, it gives up
// until the next round; so the server's write waits at most for the copy of those frames,
// one fsync of the database file and those 10 ms (docs/benchmarks.md). With no wait at all
// it found the write lock free too rarely under load (1 restart in 12 rounds, against 5-9).
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
const restart = db.prepare('pragma wal_checkpoint(restart)');
const waitForLocks = db.prepare('pragma busy_timeout = 1000');
const waitBriefly = db.prepare('pragma busy_timeout = 10');
waitForLocks.get();

function restartWaitingBriefly(): void {
  waitBriefly.get();
  try {
    restart.get();
  } finally {
    waitForLocks.get();
  }
}

const timer = setInterval(() => {
  try {
    // `log`: the frames in the WAL. A RESTART that finds the write lock taken or a reader in
    // the WAL answers busy and leaves it to a later round.
    const { log } = checkpoint.get() as { log: number };
    if (Number(log) >= restartFrames) restartWaitingBriefly();
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
