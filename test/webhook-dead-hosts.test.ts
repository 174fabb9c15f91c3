// One dead receiver must not stall everyone's webhooks (docs/design.md section 5): 200 deliveries to
// a host whose name never resolves are pending when a healthy receiver's event comes in,
// and that event is still attempted at once. The worker is a real one on its own database
// handle (as `lead-intake webhook work` runs it), the pushes go through a real server, and
// name resolution is a resolver passed in whose answers the test controls: `dead.example`
// behaves as a name server that never answers.
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../src/db/database.ts';
import { createTransactionRunner, type TransactionRunner } from '../src/db/transaction-runner.ts';
import type { HostResolver } from '../src/webhooks/delivery/address-guard.ts';
import { createWebhookMetrics } from '../src/webhooks/webhook.metrics.ts';
import { PER_HOST_CONCURRENCY, WebhookWorker } from '../src/webhooks/delivery/webhook.worker.ts';
import { pushLead } from './support/lead-client.ts';
import { createTenant, startTestServer, type Tenant, type TestServer } from './support/test-server.ts';
import { startReceiver, type WebhookReceiver } from './support/webhook-receiver.ts';
import { eventually } from './support/eventually.ts';

const DNS_TIMEOUT_MS = 3_000;
const silent = { error() {}, warn() {}, info() {}, debug() {} };

let server: TestServer;
let tenant: Tenant;
let receiver: WebhookReceiver;
let database: DatabaseHandle;
let transactions: TransactionRunner;
const lookups: string[] = [];

/** healthy.example is the loopback receiver; dead.example never gets an answer. */
const resolveHost: HostResolver = (hostname) => {
  lookups.push(hostname);
  if (hostname === 'healthy.example') return Promise.resolve([{ address: '127.0.0.1', family: 4 }]);
  return new Promise(() => {});
};

beforeAll(async () => {
  receiver = await startReceiver();
  server = await startTestServer({
    WEBHOOK_WORKER: 'false',
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    RATE_LIMIT: 'off',
  });
  tenant = await createTenant(server.database.handle);
  database = openDatabase(server.config);
  transactions = createTransactionRunner(database);
});
afterAll(async () => {
  await transactions?.close();
  await database?.close();
  await server?.close();
  await receiver?.close();
});

/** The attempts recorded of deliveries to the dead host, with their errors. */
function deadHostAttempts() {
  return database.db
    .selectFrom('webhook_attempts')
    .innerJoin('webhook_deliveries', 'webhook_deliveries.id', 'webhook_attempts.delivery_id')
    .select(['webhook_attempts.error'])
    .where('webhook_deliveries.host', '=', 'dead.example')
    .execute();
}

describe('a callback host that never resolves', () => {
  it('holds at most its share of the worker, and a healthy receiver gets its event at once', async () => {
    // More than one claim can hold (64 in flight and 64 ahead): the healthy event is newer than all of them.
    for (let lead = 0; lead < 20; lead++) {
      const callbacks = Array.from({ length: 10 }, (_, i) => `http://dead.example/hooks/${lead}/${i}`);
      expect(
        (
          await pushLead(server, tenant, 'customers', {
            prospect: { first_name: 'Dead', last_name: `Host ${lead}`, callbacks },
          })
        ).status,
      ).toBe(201);
    }
    const port = new URL(receiver.origin).port;
    const healthy = await pushLead(server, tenant, 'customers', {
      prospect: { first_name: 'Alive', last_name: 'Host', callbacks: [`http://healthy.example:${port}/healthy`] },
    });
    expect(healthy.status).toBe(201);

    const worker = new WebhookWorker({
      database,
      transactions,
      config: server.config,
      metrics: createWebhookMetrics(new Registry(), database),
      log: silent,
      resolveHost,
      dnsTimeoutMs: DNS_TIMEOUT_MS,
      pollIntervalMs: 100,
    });
    worker.start();
    try {
      const [event] = await receiver.waitFor('/healthy', 1);
      // Before the dead host's first lookups time out: none of its attempts is recorded yet.
      expect(await deadHostAttempts()).toEqual([]);
      expect(event!.json.data.id).toBe(healthy.body.id);
      // The dead host's deliveries wait for their turn: one lookup shared by the attempts
      // in flight, at most PER_HOST_CONCURRENCY of those.
      expect(lookups.filter((name) => name === 'dead.example')).toHaveLength(1);
      const pending = await database.db
        .selectFrom('webhook_deliveries')
        .select(['status', 'attempts'])
        .where('host', '=', 'dead.example')
        .execute();
      expect(pending).toHaveLength(200);
      expect(pending.every((d) => d.status === 'pending' && Number(d.attempts) === 0)).toBe(true);

      // The lookup gives up after DNS_TIMEOUT_MS: those attempts are recorded, to be retried.
      const attempts = await eventually(
        async () => {
          const rows = await deadHostAttempts();
          return rows.length >= PER_HOST_CONCURRENCY ? rows : undefined;
        },
        DNS_TIMEOUT_MS + 3_000,
        'the first attempts to the dead host',
      );
      // Every one of them ended by the lookup's deadline, not by the attempt's own, longer one.
      expect(attempts.every((a) => /^DNS lookup of dead\.example did not finish within 3 s/.test(a.error ?? ''))).toBe(
        true,
      );
    } finally {
      await worker.stop();
    }
  });
});
