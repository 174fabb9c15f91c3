// WEBHOOK_WORKER=thread (docs/design.md section 5): the delivery worker in a worker thread
// of a real server process, with its own event loop and connection (on SQLite its writes
// committed by the server's thread). What a partner and an operator notice: every event
// arrives once, signed with the distribution's secret; /metrics counts the attempts; a
// SIGTERM stops the thread with nothing left claimed, what it could not finish given back.
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { currentSecret } from '../src/webhooks/signing/signing-key.service.ts';
import { eventually } from './support/eventually.ts';
import { pushLead } from './support/lead-client.ts';
import { startServerProcess } from './support/server-process.ts';
import { createTenant, createTestDatabase, type Tenant, type TestDatabase } from './support/test-server.ts';
import { startReceiver } from './support/webhook-receiver.ts';

let database: TestDatabase;
let tenant: Tenant;
// Server processes start slowly on a machine busy with other tests: these tests wait for them.
const THREAD = { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_WORKER: 'thread' };

beforeAll(async () => {
  database = await createTestDatabase();
  tenant = await createTenant(database.handle, ['leads:write']);
});
afterAll(async () => {
  await database?.drop();
});

const unsettled = async () =>
  (
    await database.handle.db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where((eb) => eb.or([eb('status', '=', 'pending'), eb('claim_id', 'is not', null)]))
      .execute()
  ).length;

it('delivers every event once, signed, counts the attempts on /metrics, and stops with nothing claimed', async () => {
  const receiver = await startReceiver();
  const server = await startServerProcess({ ...database.env, ...THREAD });
  try {
    const pushes = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        pushLead(server, tenant, 'customers', {
          prospect: { first_name: 'Thread', last_name: `Delivery ${i}`, callbacks: [receiver.url('/thread')] },
        }),
      ),
    );
    expect(pushes.map((p) => p.status)).toEqual(pushes.map(() => 201));
    const received = await receiver.waitFor('/thread', 30);
    expect(received.map((r) => r.json.data.id).sort()).toEqual(pushes.map((p) => p.body.id).sort());

    const { secret } = await currentSecret(database.handle.db, tenant.distributionId);
    for (const webhook of received)
      expect(new Webhook(secret).verify(webhook.body, webhook.headers)).toEqual(webhook.json);

    // The thread reports its attempts to the server's /metrics (at most half a second late).
    await eventually(async () => {
      const metrics = await (await fetch(`${server.url}/metrics`)).text();
      return /^lead_intake_webhook_deliveries_total\{outcome="delivered"\} 30$/m.test(metrics);
    });
    await eventually(async () => (await unsettled()) === 0);
  } finally {
    await server.stop();
    await receiver.close();
  }
  expect(server.exitStatus()).toBe('exited with 0');
  // At-least-once, and no more here: nothing was sent twice.
  expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(receiver.received.length);
}, 180_000);

it('gives claimed deliveries back on SIGTERM while the receiver holds them: due at once, no attempt counted', async () => {
  const receiver = await startReceiver();
  // Answers after the worker's stop grace (5 s): attempts in flight are aborted and given back.
  receiver.script('/slow', ...Array.from({ length: 3 }, () => ({ status: 204, delayMs: 8_000 })));
  const server = await startServerProcess({ ...database.env, ...THREAD });
  try {
    const pushes = await Promise.all(
      Array.from({ length: 3 }, (_, i) =>
        pushLead(server, tenant, 'customers', {
          prospect: { first_name: 'Slow', last_name: `Receiver ${i}`, callbacks: [receiver.url('/slow')] },
        }),
      ),
    );
    await receiver.waitFor('/slow', 3);
    await server.stop();
    expect(server.exitStatus()).toBe('exited with 0');
    // Given back due, not left claimed until their lease is over (a next worker sends them at once).
    const db = database.handle.db;
    const rows = await db
      .selectFrom('webhook_deliveries')
      .select(['claim_id', 'status', 'attempts', 'next_attempt_at'])
      .where(
        'event_id',
        'in',
        db
          .selectFrom('webhook_events')
          .select('id')
          .where(
            'lead_id',
            'in',
            pushes.map((p) => p.body.id),
          ),
      )
      .execute();
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      expect(row).toMatchObject({ claim_id: null, status: 'pending', attempts: 0 });
      expect(Date.parse(row.next_attempt_at ?? '')).toBeLessThanOrEqual(Date.now());
    }
  } finally {
    await server.stop();
    await receiver.close();
  }
}, 180_000);
