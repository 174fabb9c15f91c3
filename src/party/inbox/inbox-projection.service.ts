// The inbox projector (docs/design.md section 13, "How far behind the inbox may be"): what
// the inbox reads beside the leads themselves, the counts per status and (SQLite) the word
// index, brought up to date after the pushes' commits instead of inside them. Every
// process runs it; its marks are rows of the database (restart-safe), and on PostgreSQL a
// process skips a distribution another one is projecting (several processes safe). A
// search on SQLite, and a page in an order SQLite reads from lead_orders (status, name,
// kind), first projects what is past the mark, so a pushed lead is found by its words and
// in its place as soon as its push has answered; the counts add the leads past their mark
// as they read, so none ever misses a lead.
import type { DatabaseHandle } from '../../db/database.ts';
import type { TransactionRunner } from '../../db/transaction-runner.ts';
import {
  distributionsBehind,
  projectDistribution,
  SOURCES_PER_BATCH,
  type StillBehind,
  wordsBehind,
} from './inbox-projection.repository.ts';

/**
 * How often a process looks for leads past the marks. On SQLite each run writes the words of
 * the pushes since the last one as one index segment: the shorter, the less a search finds
 * to index first; on PostgreSQL it only counts, and a count reads the leads since it anyway.
 */
const INTERVAL_MS = { sqlite: 250, postgres: 1_000 } as const;

export interface InboxProjectionDependencies {
  readonly database: DatabaseHandle;
  readonly transactions: TransactionRunner;
  /** Pushes folded into the sums of where leads come from per transaction (tests make it small). */
  readonly sourcesPerBatch?: number;
}

export class InboxProjection {
  readonly #database: DatabaseHandle;
  readonly #transactions: TransactionRunner;
  readonly #sourcesPerBatch: number;
  #running: Promise<void> | undefined;

  constructor(deps: InboxProjectionDependencies) {
    this.#database = deps.database;
    this.#transactions = deps.transactions;
    this.#sourcesPerBatch = deps.sourcesPerBatch ?? SOURCES_PER_BATCH;
  }

  /** Runs every INTERVAL_MS, never twice at once; returns the stop function, which waits for a run under way. */
  start(error: (error: unknown) => void): () => Promise<void> {
    let stopped = false;
    const tick = () => {
      if (this.#running || stopped) return;
      this.#running = this.runOnce()
        .catch(error)
        .finally(() => {
          this.#running = undefined;
        });
    };
    const timer = setInterval(tick, INTERVAL_MS[this.#database.dialect]).unref();
    return async () => {
      stopped = true;
      clearInterval(timer);
      await this.#running;
    };
  }

  /**
   * Brings every distribution's marks up to now: each step its own transaction, so what
   * waits for the writer (SQLite) or the mark (PostgreSQL) gets it between two batches.
   */
  async runOnce(): Promise<void> {
    for (const distributionId of await distributionsBehind(this.#database.db, this.#database.dialect)) {
      let behind: StillBehind;
      do behind = await this.#step(distributionId);
      while (behind.words || behind.sources);
    }
  }

  /**
   * SQLite: projects the distribution's leads past the word mark (their words and their
   * lead_orders row), before a search or a page in a projected order reads them.
   */
  async catchUp(distributionId: string): Promise<void> {
    if (this.#database.dialect !== 'sqlite') return;
    if (!(await wordsBehind(this.#database.db, distributionId))) return;
    // Only the words and orders: a page does not wait for a backlog of pushes to fold.
    while ((await this.#step(distributionId)).words);
  }

  #step(distributionId: string): Promise<StillBehind> {
    const dialect = this.#database.dialect;
    // SQLite stamps its writes with the process's time, taken in the writer (section 9). A
    // step keeps nothing but its rows: group commit may run it again (transaction-runner.ts).
    return this.#transactions.run(
      (trx) => projectDistribution(trx, dialect, distributionId, new Date().toISOString(), this.#sourcesPerBatch),
      { rerunnable: true },
    );
  }
}
