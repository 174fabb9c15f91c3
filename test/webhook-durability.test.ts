// Webhooks across processes (docs/design.md section 5): an accepted push never loses its event,
// not on kill -9 and not with the receiver down; several processes on one PostgreSQL
// deliver each event once.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  createTenant,
  createTestDatabase,
  dialect,
  freePort,
  type Tenant,
  type TestDatabase,
} from './support/test-server.ts';
import { startServerProcess, type ServerProcess } from './support/server-process.ts';
import { pushLead } from './support/lead-client.ts';
import { BIN } from './support/cli.ts';
import { startReceiver } from './support/webhook-receiver.ts';
import { eventually } from './support/eventually.ts';

let database: TestDatabase;
let tenant: Tenant;
// The first retry waits long enough for a test to kill the server before it; later ones are quick.
const WEBHOOKS = { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_RETRY_SCHEDULE: '1s,200ms,200ms,200ms,200ms' };

beforeAll(async () => {
  database = await createTestDatabase();
  tenant = await createTenant(database.handle, ['leads:write']);
});
afterAll(async () => {
  await database?.drop();
});

async function pushWithCallback(server: ServerProcess, callback: string): Promise<string> {
  const reply = await pushLead(server, tenant, 'customers', {
    prospect: { first_name: 'Durable', last_name: 'Event', callbacks: [callback] },
  });
  expect(reply.status).toBe(201);
  return reply.body.id as string;
}

const leadIdsOf = (received: ReadonlyArray<{ json: any }>) => received.map((r) => r.json.data.id as string).sort();

it('delivers events that were pending when the server was killed with SIGKILL (worker off)', async () => {
  const receiver = await startReceiver();
  const first = await startServerProcess({ ...database.env, ...WEBHOOKS, WEBHOOK_WORKER: 'false' });
  let second: ServerProcess | undefined;
  try {
    const leads = await Promise.all(Array.from({ length: 10 }, () => pushWithCallback(first, receiver.url('/killed'))));
    await first.kill();
    expect(receiver.received).toHaveLength(0);

    second = await startServerProcess({ ...database.env, ...WEBHOOKS });
    const received = await receiver.waitFor('/killed', 10);
    expect(leadIdsOf(received)).toEqual([...leads].sort());
  } finally {
    await first.kill();
    await second?.stop();
    await receiver.close();
  }
});

it('delivers events whose receiver was down when the server was killed with SIGKILL', async () => {
  const port = await freePort();
  const callback = `http://127.0.0.1:${port}/down`;
  const first = await startServerProcess({ ...database.env, ...WEBHOOKS });
  let second: ServerProcess | undefined;
  const receiver = { close: async () => {} } as Awaited<ReturnType<typeof startReceiver>>;
  let started: Awaited<ReturnType<typeof startReceiver>> | undefined;
  try {
    const leads = await Promise.all(Array.from({ length: 5 }, () => pushWithCallback(first, callback)));
    // Every delivery tried once and failed (connection refused); the next try is a second away.
    await eventually(
      async () => {
        const rows = await database.handle.db
          .selectFrom('webhook_deliveries')
          .select(['attempts', 'claim_id'])
          .where('url', '=', callback)
          .execute();
        return rows.length === 5 && rows.every((r) => Number(r.attempts) >= 1 && r.claim_id === null);
      },
      10_000,
      'first attempts',
    );
    await first.kill();

    started = await startReceiver(port);
    second = await startServerProcess({ ...database.env, ...WEBHOOKS });
    const received = await started.waitFor('/down', 5);
    expect(leadIdsOf(received)).toEqual([...leads].sort());
  } finally {
    await first.kill();
    await second?.stop();
    await (started ?? receiver).close();
  }
});

it.runIf(dialect === 'postgres')(
  'delivers each event once when two server processes share one PostgreSQL',
  async () => {
    const receiver = await startReceiver();
    const servers = await Promise.all([
      startServerProcess({ ...database.env, ...WEBHOOKS }),
      startServerProcess({ ...database.env, ...WEBHOOKS }),
    ]);
    try {
      const count = 60;
      // Pushes alternate between the processes, so both workers are woken and compete.
      const leads = await Promise.all(
        Array.from({ length: count }, (_, i) => pushWithCallback(servers[i % 2]!, receiver.url('/shared'))),
      );
      await receiver.waitFor('/shared', count);
      // Every delivery is recorded as delivered and no worker holds one any more.
      await eventually(async () => {
        const rows = await database.handle.db
          .selectFrom('webhook_deliveries')
          .select(['status', 'claim_id'])
          .where('url', '=', receiver.url('/shared'))
          .execute();
        return rows.length === count && rows.every((row) => row.status === 'delivered' && row.claim_id === null);
      });
      // Both processes delivered some: they really shared the work.
      const delivered = await Promise.all(
        servers.map(async (server) => {
          const text = await (await fetch(`${server.url}/metrics`)).text();
          return Number(/lead_intake_webhook_deliveries_total\{outcome="delivered"\} (\d+)/.exec(text)?.[1] ?? 0);
        }),
      );
      // A graceful stop lets the attempts in flight finish: once both processes have exited,
      // everything they sent has arrived, a duplicate too, had one been sent.
      await Promise.all(servers.map((server) => server.stop()));
      const received = receiver.received.filter((r) => r.path === '/shared');
      expect(received).toHaveLength(count);
      expect(new Set(received.map((r) => r.headers['webhook-id'])).size).toBe(count);
      expect(leadIdsOf(received)).toEqual([...leads].sort());
      expect(delivered[0]! + delivered[1]!).toBe(count);
      expect(delivered.every((n) => n > 0)).toBe(true);
    } finally {
      await Promise.all(servers.map((server) => server.stop()));
      await receiver.close();
    }
  },
);

it('lets an attempt in flight finish and record its result when the server is stopped with SIGTERM', async () => {
  const receiver = await startReceiver();
  receiver.script('/slow', { status: 204, delayMs: 500 });
  const server = await startServerProcess({ ...database.env, ...WEBHOOKS });
  try {
    const lead = await pushWithCallback(server, receiver.url('/slow'));
    await receiver.waitFor('/slow', 1);
    await server.stop();
    const row = await database.handle.db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
      .select(['d.status', 'd.attempts'])
      .where('e.lead_id', '=', lead)
      .executeTakeFirstOrThrow();
    expect({ status: row.status, attempts: Number(row.attempts) }).toEqual({ status: 'delivered', attempts: 1 });
  } finally {
    await server.stop();
    await receiver.close();
  }
});

it('delivers through a dedicated `lead-intake webhook work` process what a server without a worker accepted', async () => {
  const receiver = await startReceiver();
  const server = await startServerProcess({ ...database.env, ...WEBHOOKS, WEBHOOK_WORKER: 'false' });
  // Runs until stopped, so spawned here rather than through runCli.
  const worker = spawn(process.execPath, [BIN, 'webhook', 'work'], {
    env: { PATH: process.env.PATH, ...database.env, ...WEBHOOKS, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => worker.once('exit', (code) => resolve(code)));
  try {
    const lead = await pushWithCallback(server, receiver.url('/dedicated'));
    const [webhook] = await receiver.waitFor('/dedicated', 1);
    expect(webhook!.json.data.id).toBe(lead);
  } finally {
    worker.kill('SIGTERM');
    expect(await exited).toBe(0);
    await server.stop();
    await receiver.close();
  }
});
