// No webhook carrying a person reaches a receiver once the erasure of that person has answered
// (docs/design.md section 14), even when the worker claimed the person's deliveries before
// the erasure committed: pushes and PATCHes of the person run, the DELETE follows 0-22 ms
// later, many times over. Only `lead.erased` may arrive after the DELETE answered.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { callApi } from './support/api-client.ts';
import { eventually } from './support/eventually.ts';
import { pushLead } from './support/lead-client.ts';
import { uniqueMarker } from './support/personal-data.ts';
import { PER_HOST_CONCURRENCY } from '../src/webhooks/delivery/webhook.worker.ts';
import { BIN } from './support/cli.ts';
import { startServerProcess } from './support/server-process.ts';
import { createTenant, createTestDatabase, startTestServer, type Tenant } from './support/test-server.ts';
import { startReceiver, type WebhookReceiver } from './support/webhook-receiver.ts';

const TRIES = 40;
/** More than the worker's attempts in flight to one host. */
const BUSY = PER_HOST_CONCURRENCY + 8;
const SCOPES = ['leads:write', 'leads:read', 'parties:read', 'parties:update', 'parties:erase'];

const WEBHOOKS = { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', RATE_LIMIT: 'off' };

let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
});

const carIds = new Map<string, string>();
const customer = (marker: string, kw: number, callback: string) => ({
  origin: marker,
  prospect: {
    first_name: marker,
    last_name: `Family${marker}`,
    email: `${marker.toLowerCase()}@example.be`,
    external_refs: [{ external_ref: `crm-${marker}`, external_ref_company: 'crm' }],
    callbacks: [callback],
    risk_objects: { cars: [{ id: carIdOf(marker), brand: 'Volvo', model: marker, kw }] },
  },
});

/** One car per person, the same in each of their pushes (a merge, rule 9). */
function carIdOf(marker: string): string {
  if (!carIds.has(marker)) carIds.set(marker, randomUUID());
  return carIds.get(marker)!;
}

/** The webhooks about an erased person that reached the receiver after its DELETE answered, in `tries` races. */
async function lateWebhooks(server: { url: string }, tenant: Tenant, tries: number): Promise<string[]> {
  const late: string[] = [];
  const d = `/distributions/${tenant.distributionId}`;
  for (let attempt = 0; attempt < tries; attempt++) {
    const marker = uniqueMarker();
    // Other persons' deliveries to the same receiver, answered slowly, hold the worker's
    // slots for that host: the person's deliveries are claimed and wait in its queue while
    // the erasure runs.
    receiver.script(
      `/busy/${tries}-${attempt}`,
      ...Array.from({ length: BUSY }, () => ({ status: 204, delayMs: 300 })),
    );
    const others = Array.from({ length: BUSY }, (_, i) =>
      pushLead(
        server,
        tenant,
        'customers',
        customer(uniqueMarker(), 90 + i, receiver.url(`/busy/${tries}-${attempt}`)),
      ),
    );
    // Every slot taken (the rest of the busy ones wait in the queue) before the person is pushed.
    await receiver.waitFor(`/busy/${tries}-${attempt}`, PER_HOST_CONCURRENCY);
    const created = await pushLead(server, tenant, 'customers', customer(marker, 100, receiver.url('/hook')));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { party_id: partyId, id: leadId } = created.body as { party_id: string; id: string };
    const writes = [
      pushLead(server, tenant, 'customers', customer(marker, 110, receiver.url('/hook'))),
      callApi(server, tenant, 'PATCH', `${d}/parties/${partyId}`, { body: { telephonenr: '+32 9 999 99 99' } }),
      callApi(server, tenant, 'PATCH', `${d}/leads/${leadId}`, { body: { status: 'contacted' } }),
      pushLead(server, tenant, 'customers', customer(marker, 120, receiver.url('/hook'))),
    ];
    await new Promise((resolve) => setTimeout(resolve, attempt % 23));
    const erased = await callApi(server, tenant, 'DELETE', `${d}/parties/${partyId}`);
    expect(erased.status, JSON.stringify(erased.body)).toBe(200);
    // Everything the receiver got from here on arrived after the DELETE answered.
    const answeredAt = receiver.received.length;
    await Promise.all([...writes, ...others]);
    // The signal that the worker is past the person: `lead.erased`, claimed after the erasure's commit.
    await eventually(
      async () => receiver.received.some((r) => r.json?.type === 'lead.erased' && r.json.data.id === leadId),
      20_000,
      `lead.erased of ${leadId}`,
    );
    for (const webhook of receiver.received.slice(answeredAt))
      if (webhook.body.includes(marker) && webhook.json?.type !== 'lead.erased')
        late.push(`try ${attempt}: ${webhook.json?.type} ${webhook.json?.id}`);
  }
  return late;
}

it(`sends nothing about the person after the DELETE answered, in ${TRIES} racing tries`, async () => {
  const server = await startTestServer(WEBHOOKS);
  try {
    const tenant = await createTenant(server.database.handle, SCOPES);
    expect(await lateWebhooks(server, tenant, TRIES)).toEqual([]);
  } finally {
    await server.close();
  }
}, 300_000);

// The worker in a process of its own (`lead-intake webhook work`): it learns of the erasure
// from the database only, and the erasure learns from there that the worker is done.
it(`sends nothing after the DELETE answered with the worker in another process, in ${TRIES / 2} tries`, async () => {
  const database = await createTestDatabase();
  const server = await startServerProcess({ ...database.env, ...WEBHOOKS, WEBHOOK_WORKER: 'false' });
  const worker = spawn(process.execPath, [BIN, 'webhook', 'work'], {
    env: { PATH: process.env.PATH, ...database.env, ...WEBHOOKS, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => worker.once('exit', (code) => resolve(code)));
  try {
    const tenant = await createTenant(database.handle, SCOPES);
    expect(await lateWebhooks(server, tenant, TRIES / 2)).toEqual([]);
  } finally {
    worker.kill('SIGTERM');
    await exited;
    await server.stop();
    await database.drop();
  }
}, 300_000);
