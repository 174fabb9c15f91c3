// Every write is one transaction (docs/design.md section 11); this decides how
// transactions meet the engine.
//
// SQLite has one writer and pays an fsync-like cost per commit, so writes that arrive in
// the same event-loop turn share one transaction (group commit): one failing job rolls back
// alone, and every job is answered only after the shared commit, so an acknowledged write is
// a committed write. A job rolls back alone by a savepoint of its own, or, for work that may
// run again (commitWrite's: it runs again whenever it loses a race), by running the batch
// again: see GroupCommitRunner.
// PostgreSQL runs many transactions at once over its pool and groups commits itself.
import type { Transaction } from 'kysely';
import type { Database, DatabaseHandle } from './database.ts';
import { runText } from './statements.ts';

export type Work<T> = (trx: Transaction<Database>) => Promise<T>;

export interface RunOptions {
  /**
   * The work may run again on the same data with the same outcome, its first run undone:
   * it keeps nothing of a run but what it writes and what it returns (commitWrite's work,
   * which runs again after a lost race anyway).
   */
  readonly rerunnable?: boolean;
}

export interface TransactionRunner {
  run<T>(work: Work<T>, options?: RunOptions): Promise<T>;
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
  run<T>(work: Work<T>, _options?: RunOptions): Promise<T> {
    return this.#database.db.transaction().execute(work);
  }
  async close(): Promise<void> {}
}

interface Job {
  work: Work<unknown>;
  rerunnable: boolean;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** Caps how long one commit keeps the others waiting. */
const MAX_BATCH = 256;

/** Rows SQLite's connection has changed since it opened (triggers' included; a failed statement's not). */
const TOTAL_CHANGES = 'select total_changes() as changes';

/** A job without a savepoint failed after it wrote: the batch is undone and runs again in savepoints. */
class UndoBatch extends Error {}

/**
 * Group commit (see the top of this file). A batch of rerunnable jobs runs without
 * savepoints: a savepoint and its release were two statements per job, and inside one SQLite
 * copies each page a job writes to a sub-journal first, a copy per page per job however many
 * jobs of the batch wrote the page before (issue 34: 5-15% of a minimal push's CPU). A job
 * that fails before it writes anything (a refused push) needs no undoing; one that fails
 * after it wrote (rare on one writer: a write the lookups did not foresee) undoes the whole
 * transaction, and the batch runs again with a savepoint per job, every job from the start.
 * A batch with any other job runs in savepoints from the start.
 */
class GroupCommitRunner implements TransactionRunner {
  readonly #database: DatabaseHandle;
  #queue: Job[] = [];
  #scheduled = false;
  #running: Promise<void> | undefined;

  constructor(database: DatabaseHandle) {
    this.#database = database;
  }

  run<T>(work: Work<T>, options?: RunOptions): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({
        work,
        rerunnable: options?.rerunnable === true,
        resolve: resolve as (value: unknown) => void,
        reject,
      });
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
    let outcomes: Outcome[];
    try {
      const inSavepoints = !batch.every((job) => job.rerunnable);
      outcomes = await this.#commit(batch, inSavepoints).catch((error: unknown) => {
        if (error instanceof UndoBatch) return this.#commit(batch, true);
        throw error;
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

  /** Runs the batch's jobs in one transaction, in order, and commits it: each job's outcome. */
  #commit(batch: readonly Job[], inSavepoints: boolean): Promise<Outcome[]> {
    return this.#database.db.transaction().execute(async (trx) => {
      if (batch.length === 1) {
        // Alone in the batch: the transaction itself is the job's boundary.
        return [{ ok: true, value: await batch[0]!.work(trx) }];
      }
      const outcomes: Outcome[] = [];
      for (const job of batch) outcomes.push(await (inSavepoints ? inSavepoint(trx, job) : withoutSavepoint(trx, job)));
      return outcomes;
    });
  }
}

// Fixed texts, run as they are: nothing to build or compile per job.
const run = (trx: Transaction<Database>, text: string) => runText(trx, text, []);
const changesSoFar = async (trx: Transaction<Database>) =>
  (await runText<{ changes: number }>(trx, TOTAL_CHANGES, []))[0]!.changes;

/** A job in a savepoint of its own: when it fails, its writes roll back alone. */
async function inSavepoint(trx: Transaction<Database>, job: Job): Promise<Outcome> {
  await run(trx, 'savepoint job');
  try {
    const value = await job.work(trx);
    await run(trx, 'release savepoint job');
    return { ok: true, value };
  } catch (error) {
    await run(trx, 'rollback to savepoint job');
    await run(trx, 'release savepoint job');
    return { ok: false, error };
  }
}

/** A rerunnable job without a savepoint: when it fails after it wrote, the batch is undone (UndoBatch). */
async function withoutSavepoint(trx: Transaction<Database>, job: Job): Promise<Outcome> {
  const before = await changesSoFar(trx);
  try {
    return { ok: true, value: await job.work(trx) };
  } catch (error) {
    if ((await changesSoFar(trx)) !== before) throw new UndoBatch();
    return { ok: false, error };
  }
}
