// Runs in a worker thread (see sqlite-checkpointer.ts): copies committed WAL frames back
// into the database file with its own connection, so that work and its fsyncs happen off
// the server's event loop. PASSIVE never waits for, nor blocks, the server's readers and
// writer; frames it cannot copy yet are copied on a later round.
import { DatabaseSync } from 'node:sqlite';
import { parentPort, workerData } from 'node:worker_threads';
import type { SqliteSynchronous } from '../../config.ts';

interface CheckpointWorkerData {
  readonly filename: string;
  readonly intervalMs: number;
  readonly synchronous: SqliteSynchronous;
}

const { filename, intervalMs, synchronous } = workerData as CheckpointWorkerData;
const db = new DatabaseSync(filename);
db.exec('pragma busy_timeout = 1000');
db.exec(`pragma synchronous = ${synchronous}`);
const checkpoint = db.prepare('pragma wal_checkpoint(passive)');

const timer = setInterval(() => {
  try {
    checkpoint.get();
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
