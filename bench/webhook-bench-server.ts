// The set-up of the webhook scenarios (bench/webhooks.ts, bench/webhook-sustain.ts): a
// receiver process of its own (bench/webhook-receiver.ts) on the load generator's core, and
// a bench server (bench-server.ts, the one way to get one) whose deliveries may go to it on
// loopback (WEBHOOK_ALLOW_PRIVATE_NETWORKS); both stopped when `use` ends, whatever happened.
//   await withWebhookBenchServer({ engine, postgresUrl, pinning, env }, async (server, receiver) => ...)
import { type BenchServer, type DatabaseSpec, type ServerSpec, withBenchServer } from './bench-server.ts';
import { startServer } from './processes.ts';

export interface ReceiverStats {
  readonly total: number;
  readonly inWindow: number;
  readonly delayP50Ms: number | null;
  readonly delayP99Ms: number | null;
}

export interface WebhookReceiver {
  /** The callback a push names so that its event is delivered here. */
  readonly callbackUrl: string;
  /** The events that arrived between two instants (ms), and their delay from `created_at` to arrival. */
  stats(from: number, to: number): Promise<ReceiverStats>;
  /** How many events arrived so far. */
  delivered(): Promise<number>;
  /** Seconds from `since` until `events` had arrived (polled every 100 ms); null when not within `maxMs`. */
  drainSeconds(events: number, since: number, maxMs: number): Promise<number | null>;
}

export async function withWebhookBenchServer<T>(
  spec: DatabaseSpec & ServerSpec,
  use: (server: BenchServer, receiver: WebhookReceiver) => Promise<T>,
): Promise<T> {
  const child = await startServer(
    'bench/webhook-receiver.ts',
    {},
    { pinning: spec.pinning, readyPath: '/stats', onLoadCore: true },
  );
  const delivered = async (): Promise<number> =>
    ((await (await fetch(`${child.url}/stats`)).json()) as { total: number }).total;
  const receiver: WebhookReceiver = {
    callbackUrl: `${child.url}/hooks/lead-intake`,
    stats: async (from, to) =>
      (await fetch(`${child.url}/stats?from=${from}&to=${to}`)).json() as Promise<ReceiverStats>,
    delivered,
    async drainSeconds(events, since, maxMs) {
      for (;;) {
        if ((await delivered()) >= events) return (Date.now() - since) / 1000;
        if (Date.now() - since > maxMs) return null;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
  };
  try {
    return await withBenchServer({ ...spec, env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', ...spec.env } }, (server) =>
      use(server, receiver),
    );
  } finally {
    await child.stop();
  }
}
