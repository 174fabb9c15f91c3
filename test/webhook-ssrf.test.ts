// The SSRF guard in the running service (docs/design.md section 5): by default a callback on
// loopback or in a private network is recorded as refused and never sent.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTenant, startTestServer, type Tenant, type TestServer } from './support/test-server.ts';
import { pushLead } from './support/lead-client.ts';
import { cliJson } from './support/cli.ts';
import { eventually } from './support/eventually.ts';
import { startReceiver, type WebhookReceiver } from './support/webhook-receiver.ts';

let server: TestServer;
let tenant: Tenant;
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startReceiver();
  // WEBHOOK_ALLOW_PRIVATE_NETWORKS is left at its default (false).
  server = await startTestServer({ WEBHOOK_RETRY_SCHEDULE: '1s' });
  tenant = await createTenant(server.database.handle, ['leads:write']);
});
afterAll(async () => {
  await server?.close();
  await receiver?.close();
});

it('refuses loopback, private and metadata targets by default: recorded with the reason, never sent', async () => {
  const port = new URL(receiver.origin).port;
  const callbacks = [
    receiver.url('/loopback'),
    `http://localhost:${port}/by-name`,
    `http://[::ffff:127.0.0.1]:${port}/mapped`,
    'http://169.254.169.254/latest/meta-data',
    'http://10.0.0.1/internal',
  ];
  const pushed = await pushLead(server, tenant, 'customers', {
    prospect: { first_name: 'No', last_name: 'Ssrf', callbacks },
  });
  expect(pushed.status).toBe(201);

  const deliveries = await eventually(async () => {
    const list = await cliJson<any[]>(server.database.env, ['webhook', 'deliveries', '--lead', pushed.body.id]);
    return list.length === callbacks.length && list.every((d) => d.status === 'failed') ? list : undefined;
  });
  const byUrl = Object.fromEntries(deliveries.map((d) => [d.url, d]));
  expect(byUrl[callbacks[0]!].attempts).toEqual([
    expect.objectContaining({
      outcome: 'refused',
      status_code: null,
      error: expect.stringMatching(/^refused: 127\.0\.0\.1 resolves to 127\.0\.0\.1, a loopback address/),
    }),
  ]);
  expect(byUrl[callbacks[1]!].last_error).toMatch(
    /^refused: localhost resolves to (127\.0\.0\.1|::1), a loopback address/,
  );
  expect(byUrl[callbacks[2]!].last_error).toMatch(/a loopback address/);
  expect(byUrl[callbacks[3]!].last_error).toMatch(/a cloud metadata address$/);
  expect(byUrl[callbacks[4]!].last_error).toMatch(/a private address/);
  expect(receiver.received).toEqual([]);

  const metrics = await (await fetch(`${server.url}/metrics`)).text();
  expect(metrics).toMatch(/lead_intake_webhook_deliveries_total\{outcome="refused"\} 5/);

  // `replay --all-failed` sends every failed delivery of the distribution again: refused again here.
  const replayed = await cliJson(server.database.env, [
    'webhook',
    'replay',
    '--all-failed',
    '--distribution',
    tenant.distributionId,
  ]);
  expect([...replayed.replayed].sort()).toEqual(deliveries.map((d) => d.id).sort());
  await eventually(async () => {
    const list = await cliJson<any[]>(server.database.env, [
      'webhook',
      'deliveries',
      '--lead',
      pushed.body.id,
      '--status',
      'failed',
    ]);
    return (
      list.length === callbacks.length &&
      list.every((d) => d.attempts.length === 2 && d.attempts[1].outcome === 'refused')
    );
  });
  expect(receiver.received).toEqual([]);
});
