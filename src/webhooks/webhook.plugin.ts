// Webhooks in the server process: the metrics on /metrics, and the delivery worker, which
// starts when the app is ready and stops before anything closes (preClose), so attempts in
// flight can still record their results. WEBHOOK_WORKER=false leaves delivery to dedicated
// `lead-intake webhook work` processes.
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { DatabaseHandle } from '../db/database.ts';
import type { TransactionRunner } from '../db/transaction-runner.ts';
import { createWebhookMetrics } from './webhook.metrics.ts';
import type { WebhookOutbox } from './webhook.outbox.ts';
import { WebhookWorker } from './webhook.worker.ts';

export interface WebhookDependencies {
  readonly config: Config;
  readonly database: DatabaseHandle;
  readonly transactions: TransactionRunner;
  readonly outbox: WebhookOutbox;
  readonly clock: Clock;
}

export function registerWebhooks(app: FastifyInstance, deps: WebhookDependencies): void {
  const metrics = createWebhookMetrics(app.metrics.registry, deps.database, deps.clock);
  if (!deps.config.webhookWorker) return;
  const worker = new WebhookWorker({ ...deps, metrics, log: app.log.child({ component: 'webhook-worker' }) });
  app.addHook('onReady', async () => worker.start());
  app.addHook('preClose', async () => worker.stop());
}
