// Every write is one transaction (docs/design.md section 11); this decides how
// transactions meet the engine.
//
// SQLite has one writer and pays an fsync-like cost per commit, so writes that arrive in
// the same event-loop turn share one transaction (group commit): each job runs inside
// its own savepoint, so one failing job rolls back alone, and every job is answered only
// after the shared commit, so an acknowledged write is a committed write.
// PostgreSQL runs many transactions at once over its pool and groups commits itself.
import type { Transaction } from 'kysely';
import type { Database, DatabaseHandle } from './database.ts';
import { runText } from './statements.ts';

export type Work<T> = (trx: Transaction<Database>) => Promise<T>;

export interface TransactionRunner {
  run<T>(work: Work<T>): Promise<T>;
  close(): Promise<void>;
}

export function createTransactionRunner(database: DatabaseHandle): TransactionRunner {
  return database.dialect === 'sqlite' ? new GroupCommitRunner(database) : new PerRequestRunner(database);
}

class PerRequestRunner implements TransactionRunner {
  readonly #database: DatabaseHandle;
  constructor(database: DatabaseHandle) {
    this.#database = database;
  }
  run<T>(work: Work<T>): Promise<T> {
    return this.#database.db.transaction().execute(work);
  }
  async close(): Promise<void> {}
}

interface Job {
  work: Work<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** Caps how long one commit keeps the others waiting. */
const MAX_BATCH = 256;

class GroupCommitRunner implements TransactionRunner {
  readonly #database: DatabaseHandle;
  #queue: Job[] = [];
  #scheduled = false;
  #running: Promise<void> | undefined;

  constructor(database: DatabaseHandle) {
    this.#database = database;
  }

  run<T>(work: Work<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      this.#schedule();
    });
  }

  async close(): Promise<void> {
    while (this.#running || this.#queue.length > 0) await (this.#running ?? this.#flush());
  }

  #schedule(): void {
    if (this.#scheduled || this.#running) return;
    this.#scheduled = true;
    // setImmediate runs after the I/O phase: every request parsed in this turn joins.
    setImmediate(() => {
      this.#scheduled = false;
      this.#running = this.#flush().finally(() => {
        this.#running = undefined;
        if (this.#queue.length > 0) this.#schedule();
      });
    });
  }

  async #flush(): Promise<void> {
    const batch = this.#queue.splice(0, MAX_BATCH);
    if (batch.length === 0) return;
    const outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
    try {
      await this.#database.db.transaction().execute(async (trx) => {
        if (batch.length === 1) {
          // Alone in the batch: the transaction itself is the job's boundary.
          outcomes.push({ ok: true, value: await batch[0]!.work(trx) });
          return;
        }
        // Fixed texts, run as they are: nothing to build or compile per job.
        const run = (text: string) => runText(trx, text, []);
        for (const job of batch) {
          await run('savepoint job');
          try {
            const value = await job.work(trx);
            await run('release savepoint job');
            outcomes.push({ ok: true, value });
          } catch (error) {
            await run('rollback to savepoint job');
            await run('release savepoint job');
            outcomes.push({ ok: false, error });
          }
        }
      });
    } catch (error) {
      // The commit failed (or the lone job threw): nothing of this batch is stored.
      for (const job of batch) job.reject(error);
      return;
    }
    batch.forEach((job, index) => {
      const outcome = outcomes[index]!;
      if (outcome.ok) job.resolve(outcome.value);
      else job.reject(outcome.error);
    });
  }
}
