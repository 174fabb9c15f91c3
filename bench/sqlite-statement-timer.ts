// Loaded into a SQLite server (`node --import bench/sqlite-statement-timer.ts`): the CPU time
// (of its own thread, so other processes' load does not count) of every
// statement the server's main thread runs through node:sqlite, by its SQL text (each exec,
// and each run, get, all or iterate of a prepared statement). On SIGUSR2 it writes, to the
// file named by BENCH_STATEMENT_TIMES (%p in it is the process id), and again as the process
// exits, one JSON object per text: { sql, count, micros }.
// So what a push's statements cost, each, is read off a server under load, for any revision.
import fs from 'node:fs';
import { DatabaseSync, StatementSync } from 'node:sqlite';
import { isMainThread } from 'node:worker_threads';

const file = process.env.BENCH_STATEMENT_TIMES;

/** CPU µs and count per SQL text so far (an in-process harness may clear it to start counting). */
export const statementTimes = new Map<string, { count: number; micros: number }>();

if (file && isMainThread) {
  const times = statementTimes;
  const timed = <T extends object>(
    prototype: T,
    names: ReadonlyArray<keyof T>,
    textOf: (self: T, args: unknown[]) => string,
  ) => {
    for (const name of names) {
      const original = prototype[name] as (...args: unknown[]) => unknown;
      Object.defineProperty(prototype, name, {
        value(this: T, ...args: unknown[]) {
          const started = process.threadCpuUsage();
          try {
            return original.apply(this, args);
          } finally {
            const text = textOf(this, args);
            const entry = times.get(text) ?? { count: 0, micros: 0 };
            entry.count++;
            const used = process.threadCpuUsage(started);
            entry.micros += used.user + used.system;
            times.set(text, entry);
          }
        },
        writable: true,
        configurable: true,
      });
    }
  };
  timed(DatabaseSync.prototype, ['exec'], (_db, args) => String(args[0]));
  timed(StatementSync.prototype, ['run', 'get', 'all'], (statement) => statement.sourceSQL);
  const write = () => {
    const rows = [...times].map(([sql, t]) => ({ sql, ...t })).sort((a, b) => b.micros - a.micros);
    fs.writeFileSync(file.replaceAll('%p', String(process.pid)), JSON.stringify(rows, null, 1));
  };
  process.on('SIGUSR2', write);
  // A benchmark stops its servers with SIGTERM: their times are written as they exit.
  process.on('exit', () => times.size > 0 && write());
}
