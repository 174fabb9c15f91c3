// The TypeScript client (clients/typescript, docs/design.md section 16) against the real
// server on both databases: a partner's push, read, update, change listing and webhook,
// and its retries through a real HTTP hop that drops connections and answers 503, and
// against the server's own rate limit (429 with Retry-After).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createLeadIntakeClient,
  type CustomerLead,
  LeadIntakeError,
  verifyWebhook,
  WebhookVerificationError,
} from '../clients/typescript/src/index.ts';
import { currentSecret } from '../src/webhooks/signing/signing-key.service.ts';
import { startFlakyProxy, type FlakyProxy } from './support/flaky-proxy.ts';
import { startReceiver, type WebhookReceiver } from './support/webhook-receiver.ts';
import { createTenant, startTestServer, type Tenant, type TestServer } from './support/test-server.ts';

const SCOPES = ['leads:write', 'leads:read', 'parties:read', 'parties:update'];
let server: TestServer;
let tenant: Tenant;
let receiver: WebhookReceiver;
let proxy: FlakyProxy;

beforeAll(async () => {
  receiver = await startReceiver();
  server = await startTestServer({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', RATE_LIMIT: 'off' });
  tenant = await createTenant(server.database.handle, SCOPES);
  proxy = await startFlakyProxy(server.url);
});
afterAll(async () => {
  await proxy?.close();
  await server?.close();
  await receiver?.close();
});

const lead = (lastName: string, extra: Partial<CustomerLead['prospect']> = {}): CustomerLead => ({
  origin: 'client-test',
  prospect: { first_name: 'Client', last_name: lastName, ...extra },
});

describe('a partner using the client', () => {
  it('pushes, reads, updates with If-Match, and is told why when refused', async () => {
    const client = createLeadIntakeClient({
      baseUrl: server.url,
      token: tenant.token,
      distributionId: tenant.distributionId,
    });
    const created = await client.pushCustomerLead(lead('Push', { email: 'client.push@example.be' }));
    expect(created.response.status).toBe(201);
    expect(created.data!.prospect.last_name).toBe('Push');
    const again = await client.pushCustomerLead(lead('Push', { id: created.data!.party_id }));
    expect(again.response.status).toBe(200);
    expect(again.data!.id).toBe(created.data!.id);

    const read = await client.getLead(created.data!.id);
    expect(read.data!.prospect.email).toBe('client.push@example.be');
    const party = await client.getParty(created.data!.party_id);
    const etag = party.response.headers.get('etag')!;
    const patched = await client.updateParty(created.data!.party_id, { email: null }, { ifMatch: etag });
    expect(patched.response.status).toBe(200);
    expect(patched.data!.email).toBeUndefined();
    const stale = await client.updateParty(
      created.data!.party_id,
      { telephonenr: '+32 9 000 00 00' },
      { ifMatch: etag },
    );
    expect(stale.response.status).toBe(412);
    expect(stale.error!.detail.type).toBe('PreconditionFailed');

    const work = await client.updateLead(created.data!.id, { status: 'quoted' });
    expect(work.data!.status).toBe('quoted');

    const refused = await client.pushCustomerLead({ prospect: { first_name: 'No last name' } } as CustomerLead);
    expect(refused.response.status).toBe(422);
    expect(refused.error!.detail.errors.map((e) => e.target)).toEqual(['prospect.last_name']);
    expect((await client.getLead(created.data!.id)).data!.prospect.last_name).toBe('Push');
  });

  it('walks the change listing page by page, and from its checkpoint sees what changed since', async () => {
    const own = await createTenant(server.database.handle, SCOPES);
    const client = createLeadIntakeClient({
      baseUrl: server.url,
      token: own.token,
      distributionId: own.distributionId,
    });
    const pushed: string[] = [];
    for (let i = 0; i < 7; i++) pushed.push((await client.pushCustomerLead(lead(`Page${i}`))).data!.id);

    const listing = client.changes(undefined, { limit: 3 });
    const seen: string[] = [];
    for await (const changed of listing) seen.push(changed.id);
    expect(seen).toEqual(pushed);
    const newest = (await client.getLead(pushed[6]!)).data!.updated_at;
    expect(listing.checkpoint).toBe(newest);

    await client.updateLead(pushed[2]!, { status: 'contacted' });
    const later = (await client.pushCustomerLead(lead('Later'))).data!.id;
    const next = client.changes(listing.checkpoint, { limit: 3 });
    const since: string[] = [];
    for await (const changed of next) since.push(changed.id);
    // The lead stamped exactly at the checkpoint comes once more (docs/api.md, "Reading and updating").
    expect(since.filter((id) => id !== pushed[6])).toEqual([pushed[2], later]);
    expect(next.checkpoint! > listing.checkpoint!).toBe(true);

    const wrong = createLeadIntakeClient({
      baseUrl: server.url,
      token: 'li_wrong',
      distributionId: own.distributionId,
    });
    await expect(async () => {
      for await (const _ of wrong.changes()) expect.unreachable();
    }).rejects.toThrow(LeadIntakeError);
  });

  it('verifies a webhook the server sent, and refuses one whose body or secret is not the signed one', async () => {
    const client = createLeadIntakeClient({
      baseUrl: server.url,
      token: tenant.token,
      distributionId: tenant.distributionId,
    });
    const { secret } = await currentSecret(server.database.handle.db, tenant.distributionId);
    const created = await client.pushCustomerLead(lead('Hooked', { callbacks: [receiver.url('/client-hooks')] }));
    const [delivery] = await receiver.waitFor('/client-hooks', 1);

    const event = verifyWebhook(delivery!.body, delivery!.headers, secret);
    expect(event.type).toBe('lead.created');
    if (event.type === 'lead.created') expect(event.data.id).toBe(created.data!.id);
    expect(event.id).toBe(delivery!.headers['webhook-id']);
    expect(verifyWebhook(new TextEncoder().encode(delivery!.body), new Headers(delivery!.headers), secret).id).toBe(
      event.id,
    );

    const tampered = delivery!.body.replace('Hooked', 'Hacked');
    expect(() => verifyWebhook(tampered, delivery!.headers, secret)).toThrow(WebhookVerificationError);
    const other = (
      await currentSecret(server.database.handle.db, (await createTenant(server.database.handle)).distributionId)
    ).secret;
    expect(() => verifyWebhook(delivery!.body, delivery!.headers, other)).toThrow(WebhookVerificationError);
  });
});

it('has a method for every operation of the served document, which sends that operation', async () => {
  const document: any = await (await fetch(`${server.url}/openapi.json`)).json();
  const operations = Object.entries(document.paths).flatMap(([path, item]: [string, any]) =>
    Object.entries(item).map(([method, operation]: [string, any]) => ({ path, method, id: operation.operationId })),
  );
  const sent: Array<{ method: string; path: string }> = [];
  const client = createLeadIntakeClient({
    baseUrl: 'http://lead-intake.invalid',
    token: 'x',
    distributionId: 'the-distribution',
    fetch: async (url, init) => {
      sent.push({ method: String(init.method), path: new URL(url).pathname });
      return new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } });
    },
  });
  const methods = client as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  // A new route needs its method in clients/typescript/src/client.ts.
  expect(operations.filter(({ id }) => typeof methods[id] !== 'function').map(({ id }) => id)).toEqual([]);
  const wrong: string[] = [];
  for (const { path, method, id } of operations) {
    sent.length = 0;
    await methods[id]!('a1', 'a2', 'a3', 'a4');
    const template = new RegExp(
      `^${path.replace(/\{distribution_id\}/, 'the-distribution').replace(/\{\w+\}/g, 'a\\d')}$`,
    );
    const request = sent[0];
    if (!request || request.method !== method.toUpperCase() || !template.test(request.path)) {
      wrong.push(`${id}: sent ${request?.method} ${request?.path}, documented ${method.toUpperCase()} ${path}`);
    }
  }
  expect(wrong).toEqual([]);
});

describe('retries', () => {
  const fast = { baseDelayMs: 20, maxDelayMs: 3_000 };

  it('sends a push again after a dropped connection and a 503, with the same Idempotency-Key, and writes it once', async () => {
    const own = await createTenant(server.database.handle, SCOPES);
    const client = createLeadIntakeClient({
      baseUrl: proxy.url,
      token: own.token,
      distributionId: own.distributionId,
      retry: fast,
    });
    proxy.script('drop', { status: 503 });
    const before = proxy.seen.length;
    const pushed = await client.pushCustomerLead(lead('Retried'));
    expect(pushed.response.status).toBe(201);
    const attempts = proxy.seen.slice(before);
    expect(attempts.map((attempt) => attempt.answered)).toEqual(['drop', 503, 201]);
    const keys = attempts.map((attempt) => attempt.headers['idempotency-key']);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(keys).size).toBe(1);
    const listed = await client.listLeads();
    expect(listed.data!.items.map((item) => ('prospect' in item ? item.prospect.last_name : 'erased'))).toEqual([
      'Retried',
    ]);

    // A key given by the caller is the one sent; reads carry none.
    await client.pushCustomerLead(lead('Keyed'), { idempotencyKey: 'crm-4711-v1' });
    expect(proxy.seen.at(-1)!.headers['idempotency-key']).toBe('crm-4711-v1');
    await client.getLead(pushed.data!.id);
    expect(proxy.seen.at(-1)!.headers['idempotency-key']).toBeUndefined();
  });

  it('waits as long as Retry-After asks, and gives up after its attempts with the last answer', async () => {
    const own = await createTenant(server.database.handle, SCOPES);
    // The waits the client asks for, recorded instead of waited (the client's `sleep` option);
    // no jitter, and a fixed time for Retry-After dates, so each wait is exact.
    const waits: number[] = [];
    const now = Date.parse('Tue, 01 Dec 2026 10:00:00 GMT');
    const client = createLeadIntakeClient({
      baseUrl: proxy.url,
      token: own.token,
      distributionId: own.distributionId,
      retry: { ...fast, attempts: 3, random: () => 0, now: () => now, sleep: async (ms) => void waits.push(ms) },
    });
    proxy.script({ status: 503, headers: { 'retry-after': '1' } });
    const before = proxy.seen.length;
    expect((await client.listLeads()).response.status).toBe(200);
    expect(proxy.seen.slice(before).map((seen) => seen.answered)).toEqual([503, 200]);
    expect(waits).toEqual([1_000]);

    // Retry-After as an HTTP date (RFC 9110 section 10.2.3) is honoured too.
    proxy.script({ status: 429, headers: { 'retry-after': 'Tue, 01 Dec 2026 10:00:02 GMT' } });
    const dated = proxy.seen.length;
    expect((await client.listLeads()).response.status).toBe(200);
    expect(proxy.seen.slice(dated).map((seen) => seen.answered)).toEqual([429, 200]);
    expect(waits).toEqual([1_000, 2_000]);

    // A Retry-After longer than the client will wait (maxDelayMs) is answered at once.
    proxy.script({ status: 503, headers: { 'retry-after': '3600' } });
    const patient = proxy.seen.length;
    expect((await client.listLeads()).response.status).toBe(503);
    expect(proxy.seen.length - patient).toBe(1);
    expect(waits).toEqual([1_000, 2_000]);

    proxy.script({ status: 503 }, { status: 503 }, { status: 503 });
    const given = proxy.seen.length;
    const refused = await client.listLeads();
    expect(refused.response.status).toBe(503);
    expect(proxy.seen.length - given).toBe(3);
    expect(refused.error!.detail.type).toBe('ServiceUnavailable');
  });

  it('rides out the rate limit: 429 with Retry-After, then the request goes through', async () => {
    const limited = await startTestServer({ RATE_LIMIT: '3/min' });
    try {
      const own = await createTenant(limited.database.handle, SCOPES);
      const statuses: number[] = [];
      const client = createLeadIntakeClient({
        baseUrl: limited.url,
        token: own.token,
        distributionId: own.distributionId,
        // Each wait the client asks for moves the server's clock instead of passing:
        // Retry-After (up to a minute here) is honoured without waiting it out.
        retry: { ...fast, maxDelayMs: 60_000, sleep: async (ms) => limited.clock.advance(ms) },
        fetch: async (url, init) => {
          const response = await fetch(url, init);
          statuses.push(response.status);
          return response;
        },
      });
      const pushes = await Promise.all(Array.from({ length: 5 }, (_, i) => client.pushCustomerLead(lead(`Limit${i}`))));
      expect(pushes.map((push) => push.response.status)).toEqual([201, 201, 201, 201, 201]);
      expect(statuses).toContain(429);
      expect((await client.listLeads()).data!.items).toHaveLength(5);
    } finally {
      await limited.close();
    }
  });
});
