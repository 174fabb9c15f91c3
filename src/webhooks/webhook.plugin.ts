// Webhooks in the server process: the metrics on /metrics, and the delivery worker, which
// starts when the app is ready and stops before anything closes (preClose), so attempts in
// flight can still record their results. WEBHOOK_WORKER says where it runs: a worker
// thread of this process (webhook.thread.ts), this event loop (`main`), or nowhere here
// (`false`: dedicated `lead-intake webhook work` processes deliver).
import type { FastifyInstance } from 'fastify';
import { systemClock, type Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { DatabaseHandle } from '../db/database.ts';
import type { TransactionRunner } from '../db/transaction-runner.ts';
import { createWebhookMetrics } from './webhook.metrics.ts';
import type { WebhookOutbox } from './webhook.outbox.ts';
import { WebhookThread } from './delivery/webhook.thread.ts';
import { WebhookWorker } from './delivery/webhook.worker.ts';

export interface WebhookDependencies {
  readonly config: Config;
  readonly database: DatabaseHandle;
  readonly transactions: TransactionRunner;
  readonly outbox: WebhookOutbox;
  readonly clock: Clock;
}

export function registerWebhooks(app: FastifyInstance, deps: WebhookDependencies): void {
  const placement = deps.config.webhookWorker;
  // A test's clock (test/support) lives in this thread: a worker it drives runs here.
  const inThread = placement === 'thread' && deps.clock === systemClock;
  let thread: WebhookThread | undefined;
  const metrics = createWebhookMetrics(app.metrics.registry, deps.database, deps.clock, {
    // A scrape counts every attempt the thread has made so far, as it would on this thread.
    ...(inThread && { beforeCollect: async () => thread?.flushMetrics() }),
  });
  if (placement === 'none') return;
  const log = app.log.child({ component: 'webhook-worker' });
  if (inThread) {
    const { transactions, outbox } = deps;
    thread = new WebhookThread({
      config: deps.config,
      transactions,
      outbox,
      metrics,
      log,
    });
  }
  const worker = thread ?? new WebhookWorker({ ...deps, metrics, log });
  app.addHook('onReady', async () => worker.start());
  app.addHook('preClose', async () => worker.stop());
}
