// Loaded into a SQLite server under count (`node --import bench/sqlite-statement-counter.ts`,
// bench/push-cost.ts): counts every statement the server's main thread runs through
// node:sqlite (each exec, and each run, get, all or iterate of a prepared statement), so a
// revision that kept no count of its own is counted as this checkout is. On SIGUSR2 it
// appends the count so far to the file named by BENCH_STATEMENT_COUNTS, one line per signal.
// The checkpoint worker's thread is not counted: it runs no statement of a push.
import fs from 'node:fs';
import { DatabaseSync, StatementSync } from 'node:sqlite';
import { isMainThread } from 'node:worker_threads';

const file = process.env.BENCH_STATEMENT_COUNTS;
if (file && isMainThread) {
  let statements = 0;
  const count = <T extends object>(prototype: T, names: ReadonlyArray<keyof T>) => {
    for (const name of names) {
      const original = prototype[name] as (...args: unknown[]) => unknown;
      Object.defineProperty(prototype, name, {
        value(this: unknown, ...args: unknown[]) {
          statements++;
          return original.apply(this, args);
        },
        writable: true,
        configurable: true,
      });
    }
  };
  count(DatabaseSync.prototype, ['exec']);
  count(StatementSync.prototype, ['run', 'get', 'all', 'iterate']);
  process.on('SIGUSR2', () => fs.appendFileSync(file, `${statements}\n`));
}
