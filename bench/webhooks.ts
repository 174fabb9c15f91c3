// Scenario (d), webhooks under push load: scenario (a) pushes, each lead carrying a
// callback to a local receiver (bench/webhook-receiver.ts, a process of its own on the
// generator's core), so every push also writes an outbox event that the server's own
// worker delivers while it keeps taking pushes. Measures webhook throughput (events/s
// delivered during the measured window), how far delivery lags (the outbox lag gauge,
// sampled from /metrics, and created_at -> arrival at the receiver), and how long the
// backlog left at the end of the load takes to drain.
import type { BenchDialect } from './database.ts';
import { log, requireAllSucceeded, type Measurement } from './measure.ts';
import type { BenchOptions } from './options.ts';
import { runLoad, type Pinning } from './processes.ts';
import { loadSpecFor } from './push-run.ts';
import { CURRENT_CODE, type ServerCode } from './server-code.ts';
import { withWebhookBenchServer } from './webhook-bench-server.ts';

const LAG_SAMPLE_MS = 500;
const MAX_DRAIN_MS = 180_000;

export interface WebhookFigures {
  /** Pushes answered 2xx over the whole run (warm-up included): the events written. */
  readonly eventsWritten: number;
  readonly deliveredInWindow: number;
  readonly deliveredPerSecond: number;
  /** Event created_at to arrival at the receiver, for events that arrived in the window. */
  readonly delayP50Ms: number | null;
  readonly delayP99Ms: number | null;
  readonly maxLagSeconds: number;
  readonly lagAtEndSeconds: number;
  /** From the end of the load until the receiver had every event; null when it did not within MAX_DRAIN_MS. */
  readonly drainSeconds: number | null;
}

export interface WebhookMeasurement extends Measurement {
  readonly webhooks: WebhookFigures;
}

export async function measureWebhooks(
  dialect: BenchDialect,
  options: BenchOptions,
  pinning: Pinning,
  code: ServerCode = CURRENT_CODE,
): Promise<WebhookMeasurement> {
  const label = '(d) minimal push with a callback, webhooks delivered';
  return withWebhookBenchServer(
    { engine: dialect, postgresUrl: options.postgresUrl, code, pinning },
    async (server, receiver) => {
      const lags: number[] = [];
      const sampler = setInterval(() => {
        fetch(`${server.url}/metrics`)
          .then((r) => r.text())
          .then(
            (text) => {
              const lag = /^lead_intake_webhook_outbox_lag_seconds (\S+)$/m.exec(text);
              if (lag) lags.push(Number(lag[1]));
            },
            () => {},
          );
      }, LAG_SAMPLE_MS);
      const load = await runLoad(
        loadSpecFor(server, 'webhook', options, { callbackUrl: receiver.callbackUrl }),
        pinning,
      );
      const loadEnded = Date.now();
      clearInterval(sampler);
      requireAllSucceeded(label, load, server.process);
      const lagAtEnd = lags.at(-1) ?? NaN;
      const windowStart = loadEnded - load.durationSeconds * 1000;
      const inWindow = await receiver.stats(windowStart, loadEnded);
      const eventsWritten = Object.entries(load.statusCodes)
        .filter(([status]) => status.startsWith('2'))
        .reduce((sum, [, n]) => sum + n, 0);

      const drainSeconds = await receiver.drainSeconds(eventsWritten, loadEnded, MAX_DRAIN_MS);
      const webhooks: WebhookFigures = {
        eventsWritten,
        deliveredInWindow: inWindow.inWindow,
        deliveredPerSecond: inWindow.inWindow / load.durationSeconds,
        delayP50Ms: inWindow.delayP50Ms,
        delayP99Ms: inWindow.delayP99Ms,
        maxLagSeconds: Math.max(0, ...lags),
        lagAtEndSeconds: lagAtEnd,
        drainSeconds,
      };
      log(
        `${label}${code.revision ? ` at ${code.revision}` : ''}: ${webhooks.deliveredPerSecond.toFixed(0)} events/s delivered while taking ${load.requestsPerSecond.toFixed(0)} pushes/s; ` +
          `delay p50 ${webhooks.delayP50Ms} ms p99 ${webhooks.delayP99Ms} ms; lag max ${webhooks.maxLagSeconds.toFixed(1)} s; ` +
          `drained ${drainSeconds === null ? 'not within the limit' : `${drainSeconds.toFixed(1)} s`} after the load`,
      );
      return {
        label,
        database: dialect,
        scenario: 'webhook',
        load,
        peakRssMiB: server.process.peakRssMiB(),
        webhooks,
        ...(code.revision && { baseline: code.revision }),
      };
    },
  );
}
