// SQLite's default WAL auto-checkpoint runs inside the COMMIT that crosses 1000 pages, on
// the connection that committed: for the server that is the event loop, and the profile
// showed about a third of SQLite time there (docs/benchmarks.md). The server connection
// turns auto-checkpoints off and this worker thread checkpoints on a timer instead.
import { Worker } from 'node:worker_threads';
import type { SqliteSynchronous } from '../../config.ts';

export interface Checkpointer {
  /** A TRUNCATE checkpoint by the worker: true when the WAL was copied back and emptied. */
  truncate(): Promise<boolean>;
  stop(): Promise<void>;
}

export interface CheckpointerOptions {
  readonly filename: string;
  readonly synchronous: SqliteSynchronous;
  /** How often the WAL is copied back. */
  readonly intervalMs?: number;
  /** From this many frames on (about 4 KiB each), a round has the WAL started over (sqlite-checkpoint-thread.ts). */
  readonly restartFrames?: number;
  /** Where a failed round is reported (the server's logger once it exists). */
  readonly onError?: (message: string) => void;
}

/**
 * 64 MiB of WAL, some four seconds of minimal pushes at full load: each start-over costs the
 * server's writes a wait (sqlite-checkpoint-thread.ts), rare at this length.
 */
const RESTART_FRAMES = 16_384;

export function startCheckpointer(options: CheckpointerOptions): Checkpointer {
  const worker = new Worker(new URL('./sqlite-checkpoint-thread.ts', import.meta.url), {
    workerData: {
      filename: options.filename,
      synchronous: options.synchronous,
      intervalMs: options.intervalMs ?? 250,
      restartFrames: options.restartFrames ?? RESTART_FRAMES,
    },
  });
  // The CLI opens the same database and must still exit when its command is done.
  worker.unref();
  const warn = options.onError ?? ((text: string) => process.emitWarning(`SQLite checkpoint: ${text}`));
  // After stop(), failures are expected: the worker may start only after the database
  // was closed and its directory removed (short-lived test and benchmark databases).
  let stopping = false;
  const report = (text: string) => {
    if (!stopping) warn(text);
  };
  const truncations = new Map<number, (complete: boolean) => void>();
  let nextTruncation = 0;
  worker.on('message', (message: { error?: string; truncated?: number; complete?: boolean }) => {
    if (message.error) report(message.error);
    if (message.truncated !== undefined) {
      truncations.get(message.truncated)?.(message.complete === true);
      truncations.delete(message.truncated);
    }
  });
  // A worker that dies (its file deleted under it, say) must not take the server with it:
  // the WAL then just grows until the server's own connection checkpoints at close.
  worker.on('error', (error) => report(error.message));
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  // A worker that is gone answers nothing: its pending truncations are incomplete.
  void exited.then(() => {
    for (const resolve of truncations.values()) resolve(false);
    truncations.clear();
  });
  return {
    truncate() {
      const id = nextTruncation++;
      return new Promise<boolean>((resolve) => {
        truncations.set(id, resolve);
        worker.postMessage({ truncate: id });
      });
    },
    async stop() {
      stopping = true;
      // Keep the process alive until the worker has closed: a caller awaiting this
      // (closing the database at exit) would otherwise see its await never settle.
      worker.ref();
      worker.postMessage('stop');
      // A worker stuck in a long checkpoint must not hold up shutdown forever.
      const timeout = setTimeout(() => void worker.terminate(), 5_000).unref();
      await exited;
      clearTimeout(timeout);
    },
  };
}
