// What a syncing partner sees of an erasure (docs/design.md section 15): the change listing
// shows the erased lead once more, after its last change, with ids and time only; the
// prospect's callbacks get a signed `lead.erased` event with ids only; webhook events about
// the person that were still pending are not sent any more.
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi } from './support/api-client.ts';
import { cliJson } from './support/cli.ts';
import { settledDeliveriesAbout } from './support/deliveries.ts';
import { pushLead } from './support/lead-client.ts';
import { eventually } from './support/eventually.ts';
import { tablesContaining, uniqueMarker } from './support/personal-data.ts';
import { createTenant, startTestServer, type Tenant, type TestServer } from './support/test-server.ts';
import { startReceiver, type WebhookReceiver } from './support/webhook-receiver.ts';

let server: TestServer;
let tenant: Tenant;
let receiver: WebhookReceiver;
let paths = 0;
const SCOPES = ['leads:write', 'leads:read', 'parties:read', 'parties:erase'];

beforeAll(async () => {
  receiver = await startReceiver();
  server = await startTestServer({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_RETRY_SCHEDULE: '100ms,100ms' });
  tenant = await createTenant(server.database.handle, SCOPES);
});
afterAll(async () => {
  await server?.close();
  await receiver?.close();
});

const d = () => `/distributions/${tenant.distributionId}`;
const customer = (marker: string, extra: Record<string, unknown> = {}) => ({
  prospect: { first_name: marker, last_name: 'Synced', external_refs: [{ external_ref: marker }], ...extra },
});

async function readAll(query: string) {
  const items: any[] = [];
  let url: string | null = `${d()}/leads?limit=2&${query}`;
  while (url) {
    const page = await callApi(server, tenant, 'GET', url);
    expect(page.status).toBe(200);
    items.push(...page.body.items);
    url = page.body.next?.slice(`${server.config.publicUrl}/v1/api`.length);
  }
  return items;
}

describe('the change listing', () => {
  it('shows an erased lead once more, after its last change, as {id, party_id, erased, updated_at}', async () => {
    const since = new Date().toISOString();
    const [a, b, c] = [uniqueMarker(), uniqueMarker(), uniqueMarker()];
    const first = (await pushLead(server, tenant, 'customers', customer(a))).body;
    const erased = (await pushLead(server, tenant, 'customers', customer(b))).body;
    const last = (await pushLead(server, tenant, 'customers', customer(c))).body;
    const before = await readAll(`updated_since=${encodeURIComponent(since)}`);
    expect(before.map((item) => item.id)).toEqual([first.id, erased.id, last.id]);

    const receipt = await callApi(server, tenant, 'DELETE', `${d()}/parties/${erased.party_id}`);
    expect(receipt.status).toBe(200);
    const after = await readAll(`updated_since=${encodeURIComponent(since)}`);
    expect(after.map((item) => item.id)).toEqual([first.id, last.id, erased.id]);
    expect(after.at(-1)).toEqual({
      id: erased.id,
      party_id: erased.party_id,
      erased: true,
      updated_at: receipt.body.erased_at,
    });
    expect(receipt.body.erased_at > last.updated_at).toBe(true);
    // A partner that had read up to the last lead sees the erasure as the one change since.
    const since2 = encodeURIComponent(last.updated_at);
    expect((await readAll(`updated_since=${since2}`)).map((item) => item.id)).toEqual([last.id, erased.id]);
    // Found by the ref it was pushed with, as erased, when the lookup names the ref's company
    // (here none: empty); the tombstone keeps the two only as one keyed hash, so a lookup of
    // the ref of any company finds live leads only (docs/personal-data.md, "Answering an erasure request").
    expect(await readAll(`external_ref=${b}&external_ref_company=`)).toEqual([after.at(-1)]);
    expect(await readAll(`external_ref=${b}`)).toEqual([]);
    expect(await readAll(`external_ref=${a}`)).toEqual([expect.objectContaining({ id: first.id })]);
  });
});

describe('the lead.erased webhook', () => {
  it("goes signed to the prospect's callbacks with ids and time only", async () => {
    const path = `/erasure/${++paths}`;
    const marker = uniqueMarker();
    const pushed = await pushLead(server, tenant, 'customers', customer(marker, { callbacks: [receiver.url(path)] }));
    expect(pushed.status).toBe(201);
    await receiver.waitFor(path, 1);
    const receipt = await callApi(server, tenant, 'DELETE', `${d()}/parties/${pushed.body.party_id}`);
    expect(receipt.status).toBe(200);
    const [, erasedEvent] = await receiver.waitFor(path, 2);
    expect(erasedEvent!.json).toEqual({
      id: erasedEvent!.headers['webhook-id'],
      type: 'lead.erased',
      created_at: receipt.body.erased_at,
      distribution_id: tenant.distributionId,
      data: { id: pushed.body.id, party_id: pushed.body.party_id, erased_at: receipt.body.erased_at },
    });
    const { secret } = await cliJson<{ secret: string }>(server.database.env, [
      'webhook',
      'secret',
      '--distribution',
      tenant.distributionId,
    ]);
    expect(new Webhook(secret).verify(erasedEvent!.body, erasedEvent!.headers)).toEqual(erasedEvent!.json);
    expect(erasedEvent!.body).not.toContain(marker);
  });

  it('cancels the events about the person that were not delivered yet', async () => {
    const path = `/failing/${++paths}`;
    receiver.script(path, { status: 500 }, { status: 500 }, { status: 500 }, { status: 500 });
    const marker = uniqueMarker();
    const pushed = await pushLead(server, tenant, 'customers', customer(marker, { callbacks: [receiver.url(path)] }));
    await receiver.waitFor(path, 1);
    expect((await callApi(server, tenant, 'DELETE', `${d()}/parties/${pushed.body.party_id}`)).status).toBe(200);
    // The retry of lead.created (due 100 ms later) never comes; lead.erased does. Its three
    // attempts (all answered 500) end at least 200 ms after the erasure: once every delivery
    // about the lead is done (none pending or held by a worker), what was still to be sent
    // has been sent, and that is lead.erased alone.
    await receiver.waitFor(path, 2);
    const settled = await settledDeliveriesAbout(server.database.handle.db, pushed.body.id);
    expect(settled).toEqual([{ type: 'lead.erased', status: 'failed', attempts: 3 }]);
    const types = receiver.received.filter((hook) => hook.path === path).map((hook) => hook.json.type);
    expect(types.slice(1).every((type) => type === 'lead.erased')).toBe(true);
    expect(types.filter((type) => type === 'lead.created')).toHaveLength(1);
  });

  it("leaves no row holding the person's callback URLs once lead.erased is done, nor their remembered 410", async () => {
    const marker = uniqueMarker();
    const url = (name: string) => receiver.url(`/${name}/${marker}?who=${marker}`);
    const [kept, failing, gone] = [url('kept'), url('failing'), url('gone')];
    // A URL another person lists too: the 410 its receiver answers stays remembered for them.
    const shared = receiver.url(`/shared/${++paths}`);
    const other = await pushLead(server, tenant, 'customers', customer(uniqueMarker(), { callbacks: [shared] }));
    expect(other.status).toBe(201);
    await settledDeliveriesAbout(server.database.handle.db, other.body.id);
    receiver.script(new URL(shared).pathname, { status: 410 });
    receiver.script(new URL(gone).pathname + new URL(gone).search, { status: 410 });
    receiver.script(new URL(failing).pathname + new URL(failing).search, ...Array(10).fill({ status: 500 }));
    const pushed = await pushLead(
      server,
      tenant,
      'customers',
      customer(marker, { callbacks: [kept, failing, gone, shared] }),
    );
    expect(pushed.status).toBe(201);
    const stopped = () =>
      server.database.handle.db.selectFrom('webhook_stopped_urls').select('url').where('url', 'in', [gone, shared]);
    await eventually(async () => (await stopped().execute()).length === 2, 20_000, 'the 410s remembered');
    expect((await callApi(server, tenant, 'DELETE', `${d()}/parties/${pushed.body.party_id}`)).status).toBe(200);

    // lead.erased: delivered to one, given up on the other after its retries, not sent to the
    // URL that answered 410 (its receiver said it is gone) nor to the one still stopped.
    const settled = await settledDeliveriesAbout(server.database.handle.db, pushed.body.id);
    expect(settled.map((delivery) => delivery.status).sort()).toEqual(['delivered', 'failed', 'failed']);
    const erasedTo = receiver.received.filter(
      (hook) => hook.json?.type === 'lead.erased' && hook.body.includes(pushed.body.id),
    );
    expect(erasedTo.map((hook) => hook.path.split('/')[1]).sort()).toEqual(['failing', 'failing', 'failing', 'kept']);
    expect(await tablesContaining(server.database.handle, marker)).toEqual([]);
    expect(await stopped().execute()).toEqual([{ url: shared }]);
  });
});
