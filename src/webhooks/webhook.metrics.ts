// Webhook metrics (docs/operations.md, "Health, metrics and logs"), on the app's own
// registry (src/ops/metrics.ts): attempts by outcome, attempt latency, and the outbox
// lag: how long the oldest due delivery has been waiting. The lag is read from the
// database when scraped, so every process sharing a database reports it, the ones without
// a worker too.
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { systemClock, type Clock } from '../clock.ts';
import type { DatabaseHandle } from '../db/database.ts';
import { oldestDueAgeSeconds } from './delivery/delivery.repository.ts';
import type { AttemptOutcome } from './webhook.table.ts';

/** What the worker records: prom-client's counter and histogram, or the thread's forwarder (webhook-thread.entry.ts). */
export interface WebhookMetrics {
  readonly deliveries: { inc(labels: { outcome: AttemptOutcome }, value?: number): void };
  readonly attemptDuration: { observe(labels: { outcome: AttemptOutcome }, seconds: number): void };
}

export interface WebhookMetricSources {
  /** Before a scrape: the attempts counted elsewhere (the webhook thread) are brought in. */
  beforeCollect?: () => Promise<void>;
}

export function createWebhookMetrics(
  registry: Registry,
  database: DatabaseHandle,
  clock: Clock = systemClock,
  sources: WebhookMetricSources = {},
): WebhookMetrics {
  // One flush per scrape, shared by the two metrics that read it.
  let flushing: Promise<void> | undefined;
  const beforeCollect = sources.beforeCollect;
  const collect = beforeCollect
    ? async () => {
        flushing ??= beforeCollect().finally(() => {
          flushing = undefined;
        });
        await flushing;
      }
    : undefined;
  new Gauge({
    name: 'lead_intake_webhook_outbox_lag_seconds',
    help: 'How long the oldest due webhook delivery has been waiting for a worker (0 when none is due).',
    registers: [registry],
    async collect() {
      try {
        this.set(await oldestDueAgeSeconds(database.db, new Date(clock.now())));
      } catch {
        // A database that does not answer fails /readyz; /metrics still serves the rest.
      }
    },
  });
  return {
    deliveries: new Counter({
      name: 'lead_intake_webhook_deliveries_total',
      help:
        'Webhook delivery attempts by outcome: delivered (2xx), retry (failed, retried later), failed (the last attempt failed), ' +
        'gone (410, URL stopped), refused (address not allowed), stopped (not sent: the URL answered 410 before).',
      labelNames: ['outcome'],
      registers: [registry],
      ...(collect && { collect }),
    }),
    attemptDuration: new Histogram({
      name: 'lead_intake_webhook_attempt_duration_seconds',
      help: 'Time of one webhook delivery attempt, from resolving the host to the end of the answer, by outcome.',
      labelNames: ['outcome'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15],
      registers: [registry],
      ...(collect && { collect }),
    }),
  };
}
