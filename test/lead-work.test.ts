// The broker's work on a lead through the API (docs/design.md section 13), on both
// databases: status, lost reason and assignee in every lead answer, set by PATCH with
// If-Match and 422s on their fields, never changed by a push, moving the lead in the change
// listing, and reported to the lead's callbacks as a signed lead.status_changed event.
import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../src/sso/index.ts';
import { callApi } from './support/api-client.ts';
import { cliJson } from './support/cli.ts';
import { settledDeliveriesAbout } from './support/deliveries.ts';
import { countRows, pushLead } from './support/lead-client.ts';
import { PASSWORD } from './support/sso.ts';
import { createTenant, startTestServer, type Tenant, type TestServer } from './support/test-server.ts';
import { startReceiver, type WebhookReceiver } from './support/webhook-receiver.ts';

let server: TestServer;
let tenant: Tenant;
let other: Tenant;
let receiver: WebhookReceiver;
let broker: string;
let stranger: string;
const SCOPES = ['leads:write', 'leads:read', 'parties:update', 'parties:read'];

beforeAll(async () => {
  receiver = await startReceiver();
  server = await startTestServer({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_RETRY_SCHEDULE: '100ms' });
  const db = server.database.handle.db;
  tenant = await createTenant(server.database.handle, SCOPES);
  other = await createTenant(server.database.handle, SCOPES);
  const user = (distributionId: string, username: string) =>
    createUser(db, { distributionId, email: `${username}@example.be`, username, password: PASSWORD });
  broker = (await user(tenant.distributionId, `an-${process.pid}`)).id;
  stranger = (await user(other.distributionId, `bo-${process.pid}`)).id;
});
afterAll(async () => {
  await server?.close();
  await receiver?.close();
});

const lead = (extra: Record<string, unknown> = {}) => ({
  origin: 'acme-crm',
  prospect: {
    first_name: 'Els',
    last_name: 'Claes',
    external_refs: [{ external_ref: randomUUID(), external_ref_company: 'acme' }],
    ...extra,
  },
});
const leadPath = (id: string, t: Tenant = tenant) => `/distributions/${t.distributionId}/leads/${id}`;
const patchLead = (id: string, body: unknown, headers: Record<string, string> = {}, t: Tenant = tenant) =>
  callApi(server, t, 'PATCH', leadPath(id, t), { body, headers });

describe('a lead’s status, lost reason and assignee', () => {
  it('starts new and unassigned, in the push’s answer and the read alike', async () => {
    const pushed = await pushLead(server, tenant, 'customers', lead());
    expect(pushed.status).toBe(201);
    expect(pushed.body).toMatchObject({ status: 'new', lost_reason: null, assignee: null });
    expect(pushed.body.status_changed_at).toBe(pushed.body.created_at);
    expect((await callApi(server, tenant, 'GET', leadPath(pushed.body.id))).body).toEqual(pushed.body);
  });

  it('is set by PATCH, answered with a new ETag, and moves the lead in the change listing', async () => {
    const pushed = await pushLead(server, tenant, 'customers', lead());
    const read = await callApi(server, tenant, 'GET', leadPath(pushed.body.id));
    const since = encodeURIComponent(read.body.updated_at);
    const patched = await patchLead(
      pushed.body.id,
      { status: 'contacted', assignee: broker },
      {
        'if-match': read.headers.get('etag')!,
      },
    );
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ status: 'contacted', assignee: broker, lost_reason: null });
    expect(patched.body.status_changed_at).toBe(patched.body.updated_at);
    expect(patched.body.updated_at > read.body.updated_at).toBe(true);
    expect(patched.headers.get('etag')).not.toBe(read.headers.get('etag'));
    const again = await callApi(server, tenant, 'GET', leadPath(pushed.body.id));
    expect(again.body).toEqual(patched.body);
    expect(again.headers.get('etag')).toBe(patched.headers.get('etag'));
    // The old ETag no longer matches: 412, nothing written.
    const stale = await patchLead(pushed.body.id, { status: 'won' }, { 'if-match': read.headers.get('etag')! });
    expect(stale.status).toBe(412);
    expect(stale.body.detail.type).toBe('PreconditionFailed');
    // The partner learns what happened and what to do, not only that a precondition failed.
    expect(stale.body.detail.errors).toEqual([
      {
        type: 'PreconditionFailed',
        target: 'If-Match',
        message:
          'The resource changed since it was read: its ETag no longer matches If-Match. Read it again and send the change with the new ETag.',
      },
    ]);
    const listing = await callApi(
      server,
      tenant,
      'GET',
      `/distributions/${tenant.distributionId}/leads?updated_since=${since}&limit=100`,
    );
    const listed = listing.body.items.find((item: { id: string }) => item.id === pushed.body.id);
    expect(listed).toMatchObject({ status: 'contacted', updated_at: patched.body.updated_at });
  });

  it('keeps a lost reason only while the lead is lost', async () => {
    const pushed = await pushLead(server, tenant, 'customers', lead());
    const lost = await patchLead(pushed.body.id, { status: 'lost', lost_reason: 'Chose another insurer' });
    expect(lost.body).toMatchObject({ status: 'lost', lost_reason: 'Chose another insurer' });
    const reason = await patchLead(pushed.body.id, { lost_reason: 'Too expensive' });
    expect(reason.body).toMatchObject({ status: 'lost', lost_reason: 'Too expensive' });
    expect(reason.body.status_changed_at).toBe(lost.body.status_changed_at);
    const back = await patchLead(pushed.body.id, { status: 'quoted' });
    expect(back.body).toMatchObject({ status: 'quoted', lost_reason: null });
    const unchanged = await patchLead(pushed.body.id, { status: 'quoted' });
    expect(unchanged.status).toBe(200);
    expect(unchanged.body.updated_at).toBe(back.body.updated_at);
  });

  it('refuses a bad status, a stranger as assignee and a misplaced reason with 422 on the field, writing nothing', async () => {
    const pushed = await pushLead(server, tenant, 'customers', lead());
    const before = await countRows(server);
    const cases: Array<[unknown, string[]]> = [
      [{ status: 'closed' }, ['status']],
      [{ status: null }, ['status']],
      [{ assignee: stranger }, ['assignee']],
      [{ assignee: randomUUID() }, ['assignee']],
      [{ assignee: 'nobody' }, ['assignee']],
      [{ lost_reason: 'Too expensive' }, ['lost_reason']],
      [{ status: 'lost', lost_reason: 'x'.repeat(501) }, ['lost_reason']],
      [{ status: 'won', owner: 'me' }, ['owner']],
      [{ status: 'won', lost_reason: 'no', assignee: stranger }, ['lost_reason', 'assignee']],
    ];
    for (const [body, targets] of cases) {
      const reply = await patchLead(pushed.body.id, body);
      expect(reply.status, JSON.stringify(body)).toBe(422);
      expect(reply.body.detail.errors.map((e: { target: string }) => e.target).sort()).toEqual([...targets].sort());
    }
    expect(await countRows(server)).toEqual(before);
    expect((await callApi(server, tenant, 'GET', leadPath(pushed.body.id))).body.status).toBe('new');
  });

  it('keeps a follow-up day, set and cleared by PATCH, in every lead answer; a day that does not exist is 422', async () => {
    const body = lead();
    const pushed = await pushLead(server, tenant, 'customers', body);
    expect(pushed.body.follow_up_on).toBeNull();
    const set = await patchLead(pushed.body.id, { follow_up_on: '2026-12-01' });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ follow_up_on: '2026-12-01', status: 'new' });
    expect((await callApi(server, tenant, 'GET', leadPath(pushed.body.id))).body.follow_up_on).toBe('2026-12-01');
    const before = await countRows(server);
    for (const day of ['2026-02-30', '1 December', '2026-12-01T10:00:00Z', 20261201]) {
      const refused = await patchLead(pushed.body.id, { follow_up_on: day });
      expect(refused.status, String(day)).toBe(422);
      expect(refused.body.detail.errors.map((e: { target: string }) => e.target)).toEqual(['follow_up_on']);
    }
    expect(await countRows(server)).toEqual(before);
    // A push leaves it as the broker set it; null clears it.
    const merged = await pushLead(server, tenant, 'customers', {
      ...body,
      prospect: { ...body.prospect, telephonenr: '+32 9 123 45 67' },
    });
    expect(merged.status).toBe(200);
    expect(merged.body.follow_up_on).toBe('2026-12-01');
    const cleared = await patchLead(pushed.body.id, { follow_up_on: null });
    expect(cleared.body.follow_up_on).toBeNull();
    expect((await callApi(server, tenant, 'GET', leadPath(pushed.body.id))).body.follow_up_on).toBeNull();
  });

  it('answers another distribution’s lead 404, and a token without parties:update 403', async () => {
    const pushed = await pushLead(server, tenant, 'customers', lead());
    const foreign = await callApi(
      server,
      other,
      'PATCH',
      `/distributions/${other.distributionId}/leads/${pushed.body.id}`,
      {
        body: { status: 'won' },
      },
    );
    expect(foreign.status).toBe(404);
    const reader = await createTenant(server.database.handle, ['leads:read']);
    const refused = await callApi(server, reader, 'PATCH', leadPath(pushed.body.id, reader), {
      body: { status: 'won' },
    });
    expect(refused.status).toBe(403);
  });
});

describe('pushes never change the broker’s work', () => {
  it('keeps status, reason and assignee through merges that change everything else', async () => {
    const body = lead({ email: 'els@example.be' });
    const pushed = await pushLead(server, tenant, 'customers', body);
    await patchLead(pushed.body.id, { status: 'lost', lost_reason: 'Moved abroad', assignee: broker });
    for (const change of [
      { telephonenr: '+32 9 123 45 67' },
      { email: 'els.claes@example.be' },
      { last_name: 'Claes-Peeters' },
    ]) {
      const merged = await pushLead(server, tenant, 'customers', {
        ...body,
        origin: 'other-crm',
        prospect: { ...body.prospect, ...change },
      });
      expect(merged.status).toBe(200);
      expect(merged.body).toMatchObject({ status: 'lost', lost_reason: 'Moved abroad', assignee: broker });
    }
    const read = await callApi(server, tenant, 'GET', leadPath(pushed.body.id));
    expect(read.body).toMatchObject({
      status: 'lost',
      lost_reason: 'Moved abroad',
      assignee: broker,
      origin: 'other-crm',
    });
  });
});

describe('lead.status_changed', () => {
  it('is sent, signed, to the lead’s callbacks with the lead as the API returns it; an assignment alone sends nothing', async () => {
    const path = `/status/${randomUUID()}`;
    const pushed = await pushLead(server, tenant, 'customers', lead({ callbacks: [receiver.url(path)] }));
    await receiver.waitFor(path, 1);
    await patchLead(pushed.body.id, { assignee: broker });
    const won = await patchLead(pushed.body.id, { status: 'won' });
    const [, event] = await receiver.waitFor(path, 2);
    const secret = (await cliJson(server.database.env, ['webhook', 'secret', '--distribution', tenant.distributionId]))
      .secret as string;
    expect(new Webhook(secret).verify(event!.body, event!.headers)).toBeTruthy();
    expect(event!.json).toMatchObject({ type: 'lead.status_changed', distribution_id: tenant.distributionId });
    expect(event!.json.data).toEqual(won.body);
    expect(event!.json.data).toMatchObject({ status: 'won', assignee: broker });
    // Once the worker is done with every delivery about the lead, whatever the assignment
    // had sent would have arrived.
    await settledDeliveriesAbout(server.database.handle.db, pushed.body.id);
    expect(receiver.received.filter((webhook) => webhook.path === path)).toHaveLength(2);
  });
});
