// Webhooks end to end (docs/design.md section 5): a real server with its worker, a real
// receiver on loopback (so private networks are allowed here; webhook-ssrf.test.ts proves
// they are refused by default), the real CLI for secrets, deliveries and replays.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { createTenant, startTestServer, type Tenant, type TestServer } from './support/test-server.ts';
import { pushLead } from './support/lead-client.ts';
import { callApi } from './support/api-client.ts';
import { cliJson, runCli } from './support/cli.ts';
import { eventually } from './support/eventually.ts';
import { startReceiver, type WebhookReceiver } from './support/webhook-receiver.ts';

let server: TestServer;
let tenant: Tenant;
let receiver: WebhookReceiver;
let paths = 0;
// Milliseconds, not the production minutes: the rules are the same, the suite stays fast.
const SCHEDULE = '100ms,100ms,100ms';

beforeAll(async () => {
  receiver = await startReceiver();
  server = await startTestServer({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_RETRY_SCHEDULE: SCHEDULE });
  tenant = await createTenant(server.database.handle, ['leads:write', 'leads:read', 'parties:update']);
});
afterAll(async () => {
  await server?.close();
  await receiver?.close();
});

/** A callback path of its own per use, so tests never see each other's webhooks. */
const newPath = () => `/hooks/${++paths}`;
const env = () => server.database.env;
const secretOf = async (t: Tenant = tenant) =>
  (await cliJson(env(), ['webhook', 'secret', '--distribution', t.distributionId])).secret as string;
const customer = (prospect: Record<string, unknown>) => ({
  prospect: {
    first_name: 'Hook',
    last_name: 'Receiver',
    external_refs: [{ external_ref: crypto.randomUUID(), external_ref_company: 'crm' }],
    ...prospect,
  },
});

async function deliveriesOf(leadId: string, ...filter: string[]) {
  return cliJson<any[]>(env(), ['webhook', 'deliveries', '--lead', leadId, ...filter]);
}

/** A delivery as the worker left it: its status, claim and attempts. */
async function deliveryRow(id: string) {
  return server.database.handle.db
    .selectFrom('webhook_deliveries')
    .select(['status', 'claim_id', 'attempts'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

describe('events', () => {
  it('sends lead.created with the lead exactly as the push answered it, signed with the secret the CLI prints', async () => {
    const path = newPath();
    const pushed = await pushLead(server, tenant, 'customers', customer({ callbacks: [receiver.url(path)] }));
    expect(pushed.status).toBe(201);
    const [webhook] = await receiver.waitFor(path, 1);

    expect(webhook!.json).toEqual({
      id: webhook!.headers['webhook-id'],
      type: 'lead.created',
      created_at: pushed.body.created_at,
      distribution_id: tenant.distributionId,
      data: pushed.body,
    });
    expect(webhook!.headers['content-type']).toBe('application/json');
    const secret = await secretOf();
    expect(secret).toMatch(/^whsec_/);
    expect(new Webhook(secret).verify(webhook!.body, webhook!.headers)).toEqual(webhook!.json);
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(webhook!.body, webhook!.headers),
    ).toThrow();
    // The secret is stable: the receiver configures it once.
    expect(await secretOf()).toBe(secret);
  });

  it('sends to every callback of the prospect, and lead.updated only when a push changed stored data', async () => {
    const [first, second] = [newPath(), newPath()];
    const body = customer({ callbacks: [receiver.url(first)] });
    const created = await pushLead(server, tenant, 'customers', body);
    await receiver.waitFor(first, 1);

    // The same push again changes nothing: no event.
    expect((await pushLead(server, tenant, 'customers', body)).status).toBe(200);
    // A new callback is a change; both callbacks get the update.
    const updated = await pushLead(server, tenant, 'customers', {
      ...body,
      prospect: { ...body.prospect, telephonenr: '+32 9 222 22 22', callbacks: [receiver.url(second)] },
    });
    expect(updated.status).toBe(200);
    const [, update] = await receiver.waitFor(first, 2);
    const [toSecond] = await receiver.waitFor(second, 1);
    expect(update!.json).toMatchObject({ type: 'lead.updated', data: updated.body });
    expect(update!.json.data.prospect).toMatchObject({
      telephonenr: '+32 9 222 22 22',
      callbacks: [receiver.url(first), receiver.url(second)],
    });
    expect(toSecond!.json.id).toBe(update!.json.id);
    const events = await server.database.handle.db
      .selectFrom('webhook_events')
      .select('type')
      .where('lead_id', '=', created.body.id)
      .orderBy('created_at')
      .execute();
    expect(events.map((e) => e.type)).toEqual(['lead.created', 'lead.updated']);
  });

  it('sends party.updated when a party update changed it', async () => {
    const path = newPath();
    const pushed = await pushLead(server, tenant, 'customers', customer({ callbacks: [receiver.url(path)] }));
    await receiver.waitFor(path, 1);
    const patched = await callApi(
      server,
      tenant,
      'PATCH',
      `/distributions/${tenant.distributionId}/parties/${pushed.body.party_id}`,
      { body: { telephonenr: '+32 9 333 33 33' } },
    );
    expect(patched.status).toBe(200);
    const [, update] = await receiver.waitFor(path, 2);
    const lead = await callApi(
      server,
      tenant,
      'GET',
      `/distributions/${tenant.distributionId}/leads/${pushed.body.id}`,
    );
    expect(update!.json).toMatchObject({
      type: 'party.updated',
      distribution_id: tenant.distributionId,
      data: lead.body,
    });
  });

  it('writes nothing to the outbox for pushes without callbacks', async () => {
    const count = async () =>
      Number(
        (
          await server.database.handle.db
            .selectFrom('webhook_events')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    expect((await pushLead(server, tenant, 'customers', customer({}))).status).toBe(201);
    expect(await count()).toBe(before);
  });

  it('refuses callbacks that are not absolute http(s) URLs with 422', async () => {
    const reply = await pushLead(
      server,
      tenant,
      'customers',
      customer({ callbacks: ['ftp://files.example.com/x', '/hooks/relative', 'https://crm.example.com/ok'] }),
    );
    expect(reply.status).toBe(422);
    expect(reply.body.detail.errors.map((e: { target: string }) => e.target)).toEqual([
      'prospect.callbacks.0',
      'prospect.callbacks.1',
    ]);
  });
});

describe('retries', () => {
  it('retries a failing receiver with the same webhook-id: two failures, then success, is three attempts', async () => {
    const path = newPath();
    receiver.script(path, { status: 500 }, { status: 503 });
    const pushed = await pushLead(server, tenant, 'customers', customer({ callbacks: [receiver.url(path)] }));
    const attempts = await receiver.waitFor(path, 3);
    expect(new Set(attempts.map((a) => a.headers['webhook-id'])).size).toBe(1);
    expect(new Set(attempts.map((a) => a.body)).size).toBe(1);
    const secret = await secretOf();
    for (const attempt of attempts)
      expect(() => new Webhook(secret).verify(attempt.body, attempt.headers)).not.toThrow();

    const [delivery] = await eventually(async () => {
      const list = await deliveriesOf(pushed.body.id);
      return list[0]?.status === 'delivered' ? list : undefined;
    });
    expect(delivery).toMatchObject({
      event_type: 'lead.created',
      url: receiver.url(path),
      status: 'delivered',
      last_status_code: 204,
    });
    expect(delivery.attempts.map((a: any) => [a.attempt_nr, a.outcome, a.status_code])).toEqual([
      [1, 'retry', 500],
      [2, 'retry', 503],
      [3, 'delivered', 204],
    ]);
    expect(delivery.attempts[0]).toMatchObject({
      error: 'HTTP 500',
      duration_ms: expect.any(Number),
      started_at: expect.any(String),
    });
    // A delivered delivery is done. The server's clock moves a minute on (600 retry
    // intervals), and a later delivery is claimed at that time: once it is delivered and this
    // one is not held by a claim, a fourth attempt would have been claimed with it and sent.
    server.clock.advance(60_000);
    const probePath = newPath();
    const probe = await pushLead(server, tenant, 'customers', customer({ callbacks: [receiver.url(probePath)] }));
    await eventually(async () => (await deliveriesOf(probe.body.id))[0]?.status === 'delivered');
    await eventually(async () => (await deliveryRow(delivery.id)).claim_id === null, 20_000, 'no claim on it');
    expect(await deliveryRow(delivery.id)).toMatchObject({ status: 'delivered', attempts: 3 });
    expect(receiver.received.filter((r) => r.path === path)).toHaveLength(3);
  });

  it('waits as long as Retry-After asks on 429', async () => {
    const path = newPath();
    receiver.script(path, { status: 429, headers: { 'retry-after': '1' } });
    const pushed = await pushLead(server, tenant, 'customers', customer({ callbacks: [receiver.url(path)] }));
    // The next attempt as the worker scheduled it on the server's clock, not as the test
    // timed it: the schedule alone would have retried 100 ms after the answer.
    const db = server.database.handle.db;
    const retrying = await eventually(async () => {
      const row = await db
        .selectFrom('webhook_deliveries')
        .innerJoin('webhook_events', 'webhook_events.id', 'webhook_deliveries.event_id')
        .select(['webhook_deliveries.id', 'webhook_deliveries.attempts', 'webhook_deliveries.next_attempt_at'])
        .where('webhook_events.lead_id', '=', pushed.body.id)
        .executeTakeFirst();
      return row?.attempts === 1 ? row : undefined;
    });
    const first = await db
      .selectFrom('webhook_attempts')
      .select('started_at')
      .where('delivery_id', '=', retrying.id)
      .executeTakeFirstOrThrow();
    expect(Date.parse(retrying.next_attempt_at!) - Date.parse(first.started_at)).toBeGreaterThanOrEqual(1_000);
    await receiver.waitFor(path, 2);
  });

  it('marks a delivery failed after the last attempt, and `webhook replay` sends it again with the same id', async () => {
    const path = newPath();
    receiver.script(path, ...Array.from({ length: 4 }, () => ({ status: 500 })));
    const pushed = await pushLead(server, tenant, 'customers', customer({ callbacks: [receiver.url(path)] }));
    await receiver.waitFor(path, 4);
    const [failed] = await eventually(async () => {
      const list = await deliveriesOf(pushed.body.id, '--status', 'failed');
      return list.length > 0 ? list : undefined;
    });
    expect(failed.attempts.map((a: any) => a.outcome)).toEqual(['retry', 'retry', 'retry', 'failed']);

    expect(await cliJson(env(), ['webhook', 'replay', failed.id])).toEqual({ replayed: [failed.id] });
    const all = await receiver.waitFor(path, 5);
    expect(all[4]!.headers['webhook-id']).toBe(all[0]!.headers['webhook-id']);
    await eventually(async () => (await deliveriesOf(pushed.body.id))[0]?.status === 'delivered');
    expect((await runCli(env(), ['webhook', 'replay', crypto.randomUUID()])).code).toBe(1);
  });

  it('stops sending to a URL that answered 410 Gone, until a push lists it again', async () => {
    const path = newPath();
    receiver.script(path, { status: 410 });
    const body = customer({ callbacks: [receiver.url(path)] });
    const pushed = await pushLead(server, tenant, 'customers', body);
    await receiver.waitFor(path, 1);
    await eventually(async () => (await deliveriesOf(pushed.body.id))[0]?.status === 'failed');

    // A party update does not list callbacks: its event is recorded, not sent.
    const partyPath = `/distributions/${tenant.distributionId}/parties/${pushed.body.party_id}`;
    expect(
      (await callApi(server, tenant, 'PATCH', partyPath, { body: { telephonenr: '+32 9 444 44 44' } })).status,
    ).toBe(200);
    const stopped = await eventually(async () => {
      const list = await deliveriesOf(pushed.body.id);
      return list.length === 2 && list[0].status === 'failed' ? list[0] : undefined;
    });
    expect(stopped).toMatchObject({
      event_type: 'party.updated',
      attempts: [{ outcome: 'stopped', status_code: null, error: expect.stringMatching(/410 Gone/) }],
    });
    expect(receiver.received.filter((r) => r.path === path)).toHaveLength(1);

    // The platform lists the URL again: deliveries resume.
    const again = await pushLead(server, tenant, 'customers', {
      ...body,
      prospect: { ...body.prospect, telephonenr: '+32 9 555 55 55' },
    });
    const [, resumed] = await receiver.waitFor(path, 2);
    expect(resumed!.json).toMatchObject({ type: 'lead.updated', data: { id: again.body.id } });
  });
});

describe('secret rotation', () => {
  it('signs with both the old and the new secret after a rotation', async () => {
    const rotating = await createTenant(server.database.handle, ['leads:write']);
    const old = await secretOf(rotating);
    const rotated = await cliJson(env(), ['webhook', 'rotate-secret', '--distribution', rotating.distributionId]);
    expect(rotated.secret).not.toBe(old);
    expect(rotated.previous).toEqual([{ created_at: expect.any(String), expires_at: expect.any(String) }]);
    const overlap = Date.parse(rotated.previous[0].expires_at) - Date.now();
    expect(overlap).toBeGreaterThan(23.9 * 3_600_000);
    expect(overlap).toBeLessThanOrEqual(24 * 3_600_000);
    expect(await secretOf(rotating)).toBe(rotated.secret);

    const path = newPath();
    await pushLead(server, rotating, 'customers', customer({ callbacks: [receiver.url(path)] }));
    const [webhook] = await receiver.waitFor(path, 1);
    expect(webhook!.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    for (const secret of [old, rotated.secret])
      expect(() => new Webhook(secret).verify(webhook!.body, webhook!.headers)).not.toThrow();
  });

  it('refuses an unknown distribution', async () => {
    const run = await runCli(env(), ['webhook', 'secret', '--distribution', crypto.randomUUID()]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^lead-intake webhook: unknown distribution/);
  });
});

describe('metrics', () => {
  it('counts attempts by outcome, times them and reports the outbox lag', async () => {
    const path = newPath();
    await pushLead(server, tenant, 'customers', customer({ callbacks: [receiver.url(path)] }));
    await receiver.waitFor(path, 1);
    const text = await eventually(async () => {
      const body = await (await fetch(`${server.url}/metrics`)).text();
      return /lead_intake_webhook_deliveries_total\{outcome="delivered"\} [1-9]/.test(body) ? body : undefined;
    });
    expect(text).toMatch(/lead_intake_webhook_attempt_duration_seconds_count\{outcome="delivered"\} [1-9]/);
    expect(text).toMatch(/lead_intake_webhook_deliveries_total\{outcome="retry"\} [1-9]/);
    expect(text).toMatch(/^lead_intake_webhook_outbox_lag_seconds \d/m);
  });
});

describe('webhook CLI', () => {
  it.each([
    { case: 'a missing --distribution', args: ['webhook', 'secret'], code: 2 },
    { case: 'an unknown status', args: ['webhook', 'deliveries', '--status', 'lost'], code: 2 },
    { case: 'a bad limit', args: ['webhook', 'deliveries', '--limit', '0'], code: 2 },
    { case: 'a replay without an id', args: ['webhook', 'replay'], code: 2 },
    { case: 'an unknown subcommand', args: ['webhook', 'resend'], code: 2 },
    {
      case: 'a rotation for an unknown distribution',
      args: ['webhook', 'rotate-secret', '--distribution', '00000000-0000-4000-8000-000000000001'],
      code: 1,
    },
  ])('refuses $case: one line on stderr, exit $code', async ({ args, code }) => {
    const run = await runCli(env(), args);
    expect({ code: run.code, stdout: run.stdout }).toEqual({ code, stdout: '' });
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
  });
});
