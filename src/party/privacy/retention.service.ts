// Retention (docs/design.md section 15; docs/personal-data.md, "Retention"): push-log
// entries, finished webhook events and unchanged leads older than their configured period
// are removed, in small batches, each its own short transaction, so pushes are never held
// up for long (on SQLite a batch joins the same group commit as the pushes waiting beside
// it). A lease row lets one process at a time run a pass; a process that dies loses it
// when it runs out. An expired lead is erased exactly as DELETE .../parties/{id} erases
// it: tombstone, `lead.erased` event and audit entry included, with the actor `retention`.
import { randomUUID } from 'node:crypto';
import type { Retention } from '../../config.ts';
import type { DatabaseHandle } from '../../db/database.ts';
import { checkpointAfterErasure } from './physical-erasure.repository.ts';
import type { TransactionRunner } from '../../db/transaction-runner.ts';
import { commitWrite } from '../../db/write.ts';
import { ApiError } from '../../errors.ts';
import { setLongInterval } from '../../long-timer.ts';
import type { WebhookOutbox } from '../../webhooks/webhook.outbox.ts';
import { eraseInTransaction } from './erasure.service.ts';
import type { RefHashes } from './ref-hashes.service.ts';
import {
  deleteOldEvents,
  deleteOldPushes,
  findLeadLastChange,
  findStaleParties,
  listDistributionIds,
  releaseLease,
  takeLease,
} from './retention.repository.ts';

/** Rows per batch: a batch's transaction stays in the low milliseconds. */
export const RETENTION_BATCH = 500;
/** Leads per batch: each is a whole erasure. */
const LEAD_BATCH = 20;
const LEASE_NAME = 'retention';
/** Renewed with every batch, so only a process that stopped for this long loses it. */
const LEASE_MS = 5 * 60_000;
/**
 * The share of the time a pass spends in its batches: after a batch that took t, it waits
 * t * (1 - share) / share. A batch costs SQLite's single writer more than its own time (the
 * WAL it grows is checkpointed later): with a tenth, pushes kept 86 % of their rate, so a
 * twentieth (docs/benchmarks.md, "Erasure and retention").
 */
export const RETENTION_SHARE = 0.05;

export interface RetentionReport {
  /** False when another process held the lease: this one removed nothing. */
  readonly ran: boolean;
  readonly push_log: number;
  readonly webhook_events: number;
  readonly webhook_deliveries: number;
  readonly webhook_attempts: number;
  readonly leads: number;
}

export interface RetentionDependencies {
  readonly database: DatabaseHandle;
  readonly transactions: TransactionRunner;
  readonly refHashes: RefHashes;
  readonly outbox: WebhookOutbox;
  readonly retention: Retention;
  /** Run between batches with the time the last one took: pushes get the writer meanwhile. */
  readonly pause?: (batchMs: number) => Promise<void>;
}

export class RetentionService {
  readonly #deps: RetentionDependencies;
  readonly #holder = randomUUID();

  constructor(deps: RetentionDependencies) {
    this.#deps = deps;
  }

  /** Whether any retention period is set. */
  get enabled(): boolean {
    const { pushLogMs, webhookEventsMs, leadsMs } = this.#deps.retention;
    return pushLogMs !== undefined || webhookEventsMs !== undefined || leadsMs !== undefined;
  }

  /**
   * The background task: a pass every `intervalMs` (the first one soon after start), never
   * two at once in this process; the lease keeps other processes' passes apart from it.
   * Returns the stop function, which waits for a pass under way.
   */
  start(events: { report(report: RetentionReport): void; error(error: unknown): void }): () => Promise<void> {
    let running: Promise<void> | undefined;
    let stopped = false;
    const tick = () => {
      if (running || stopped) return;
      running = this.runPass()
        .then((report) => events.report(report), events.error)
        .finally(() => {
          running = undefined;
        });
    };
    const first = setTimeout(tick, 1_000).unref();
    // RETENTION_INTERVAL may be longer than one Node timer holds (long-timer.ts).
    const timer = setLongInterval(tick, this.#deps.retention.intervalMs);
    return async () => {
      stopped = true;
      clearTimeout(first);
      timer.clear();
      await running;
    };
  }

  /** One pass over everything that has expired by `now`. */
  async runPass(now = new Date()): Promise<RetentionReport> {
    const report = { ran: false, push_log: 0, webhook_events: 0, webhook_deliveries: 0, webhook_attempts: 0, leads: 0 };
    if (!(await this.#renewLease(now))) return report;
    report.ran = true;
    try {
      const { pushLogMs, webhookEventsMs, leadsMs } = this.#deps.retention;
      // Leads first: their push log and events go with them, as part of the erasure.
      if (leadsMs !== undefined) report.leads = await this.#eraseLeads(cutoff(now, leadsMs));
      if (pushLogMs !== undefined) {
        const before = cutoff(now, pushLogMs);
        for (const distributionId of await listDistributionIds(this.#deps.database.db))
          report.push_log += await this.#inBatches((trx) =>
            deleteOldPushes(trx, distributionId, before, RETENTION_BATCH),
          );
      }
      if (webhookEventsMs !== undefined) {
        const before = cutoff(now, webhookEventsMs);
        for (;;) {
          const started = performance.now();
          const removed = await commitWrite(this.#deps.transactions, (trx) =>
            deleteOldEvents(trx, before, RETENTION_BATCH),
          );
          report.webhook_events += removed.events;
          report.webhook_deliveries += removed.deliveries;
          report.webhook_attempts += removed.attempts;
          if (removed.events < RETENTION_BATCH) break;
          await this.#between(performance.now() - started);
        }
      }
      const removedAny = report.push_log + report.webhook_events + report.leads > 0;
      if (removedAny) await checkpointAfterErasure(this.#deps.database);
    } finally {
      await releaseLease(this.#deps.database.db, LEASE_NAME, this.#holder);
    }
    return report;
  }

  async #renewLease(now = new Date()): Promise<boolean> {
    const until = new Date(now.getTime() + LEASE_MS).toISOString();
    return takeLease(this.#deps.database.db, LEASE_NAME, this.#holder, new Date().toISOString(), until);
  }

  /** Runs `batch` in its own transaction until it removes fewer than a full batch. */
  async #inBatches(batch: Parameters<typeof commitWrite<number>>[1]): Promise<number> {
    let total = 0;
    for (;;) {
      const started = performance.now();
      const removed = await commitWrite(this.#deps.transactions, batch);
      total += removed;
      if (removed < RETENTION_BATCH) return total;
      await this.#between(performance.now() - started);
    }
  }

  async #eraseLeads(before: string): Promise<number> {
    const { database, transactions, refHashes, outbox } = this.#deps;
    const hash = await refHashes.hasher();
    let erased = 0;
    for (const distributionId of await listDistributionIds(database.db)) {
      for (;;) {
        const started = performance.now();
        const parties = await findStaleParties(database.db, distributionId, before, LEAD_BATCH);
        for (const partyId of parties) {
          try {
            const result = await commitWrite(transactions, async (trx) => {
              // Changed since it was found: not expired any more.
              const lastChange = await findLeadLastChange(trx, partyId);
              if (lastChange === undefined || lastChange >= before) return undefined;
              return eraseInTransaction(trx, { distributionId, partyId, actor: 'retention' }, hash, outbox);
            });
            if (result) {
              erased++;
              if (result.callbacks) outbox.committed();
              await outbox.settleRevokedClaims(transactions, database.db, result.revokedClaims);
            }
          } catch (error) {
            // Erased meanwhile by a request: nothing left to do for it.
            if (!(error instanceof ApiError)) throw error;
          }
        }
        if (parties.length < LEAD_BATCH) break;
        await this.#between(performance.now() - started);
      }
    }
    return erased;
  }

  async #between(batchMs: number): Promise<void> {
    await this.#renewLease();
    const pause =
      this.#deps.pause ??
      ((ms: number) =>
        new Promise<void>((resolve) =>
          setTimeout(resolve, Math.max(1, (ms * (1 - RETENTION_SHARE)) / RETENTION_SHARE)),
        ));
    await pause(batchMs);
  }
}

function cutoff(now: Date, periodMs: number): string {
  return new Date(now.getTime() - periodMs).toISOString();
}
