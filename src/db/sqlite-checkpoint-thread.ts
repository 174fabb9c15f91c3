// Runs in a worker thread (see sqlite-checkpointer.ts): copies committed WAL frames back
// into the database file with its own connection, so that work and its fsyncs happen off
// the server's event loop. PASSIVE never waits for, nor blocks, the server's readers and
// writer; frames it cannot copy yet are copied on a later round.
import { DatabaseSync } from 'node:sqlite';
import { parentPort, workerData } from 'node:worker_threads';
import type { SqliteSynchronous } from '../config.ts';

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

parentPort?.on('message', (message: unknown) => {
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
