// Retention (docs/design.md section 15): each period off by default; `retention run` and
// the background task remove what is older than its period, in batches, and nothing else;
// an expired lead is erased with its tombstone; one pass at a time across processes.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import { callApi } from './support/api-client.ts';
import { cliJson, runCli } from './support/cli.ts';
import { eventually } from './support/eventually.ts';
import { pushLead } from './support/lead-client.ts';
import { pushRichPerson, tablesContaining } from './support/personal-data.ts';
import { createTenant, startTestServer, type Tenant, type TestServer } from './support/test-server.ts';

let server: TestServer;
let tenant: Tenant;
const SCOPES = ['leads:write', 'leads:read', 'parties:read', 'parties:update', 'parties:erase'];
const LONG_AGO = '2020-01-01T00:00:00.000Z';

beforeAll(async () => {
  server = await startTestServer();
  tenant = await createTenant(server.database.handle, SCOPES);
});
afterAll(() => server.close());

const d = () => `/distributions/${tenant.distributionId}`;
const db = () => server.database.handle.db;
const retention = (env: Record<string, string>) =>
  cliJson(server.database.env ? { ...server.database.env, ...env } : env, ['retention', 'run']);

async function newLead() {
  const pushed = await pushLead(server, tenant, 'customers', {
    prospect: { first_name: 'Kept', last_name: randomUUID(), callbacks: ['http://127.0.0.1:9/retention'] },
  });
  expect(pushed.status).toBe(201);
  return { leadId: pushed.body.id as string, partyId: pushed.body.party_id as string };
}

async function pushCount(leadId: string): Promise<number> {
  const rows = await db().selectFrom('lead_pushes').select('id').where('lead_id', '=', leadId).execute();
  return rows.length;
}

describe('configuration', () => {
  it('is off by default and takes durations or off, with one message per bad value', () => {
    expect(loadConfig({}).retention).toMatchObject({
      pushLogMs: undefined,
      webhookEventsMs: undefined,
      leadsMs: undefined,
    });
    expect(
      loadConfig({ RETENTION_PUSH_LOG: '400d', RETENTION_LEADS: 'off', RETENTION_WEBHOOK_EVENTS: '12h' }).retention,
    ).toMatchObject({
      pushLogMs: 400 * 86_400_000,
      leadsMs: undefined,
      webhookEventsMs: 12 * 3_600_000,
    });
    try {
      loadConfig({ RETENTION_PUSH_LOG: 'a year', RETENTION_LEADS: '0d' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems).toEqual([
        expect.stringMatching(/^RETENTION_PUSH_LOG="a year": must be a duration/),
        expect.stringMatching(/^RETENTION_LEADS="0d": must be a duration/),
      ]);
    }
  });

  it('honours a duration beyond a Node timer and refuses, naming the variable, one beyond what a date holds', () => {
    // Longer than one Node timer holds (24.8 days): the background task chains timers (long-timer.ts).
    expect(loadConfig({ RETENTION_INTERVAL: '25d' }).retention.intervalMs).toBe(25 * 86_400_000);
    expect(loadConfig({ RETENTION_LEADS: '36500d' }).retention.leadsMs).toBe(36_500 * 86_400_000);
    try {
      loadConfig({ RETENTION_PUSH_LOG: '999999999d', IDEMPOTENCY_TTL: '9999999999999999999999d' });
      expect.unreachable();
    } catch (error) {
      expect((error as ConfigError).problems).toEqual([
        'IDEMPOTENCY_TTL="9999999999999999999999d": must be at most 36500d (100 years)',
        'RETENTION_PUSH_LOG="999999999d": must be at most 36500d (100 years)',
      ]);
    }
  });
});

describe('lead-intake retention run', () => {
  it('removes push-log entries older than RETENTION_PUSH_LOG in batches; the leads keep their data', async () => {
    const old = await newLead();
    const recent = await newLead();
    // Over two batches of old entries, as a long-running distribution would have.
    const extra = Array.from({ length: 1_100 }, () => ({
      id: randomUUID(),
      lead_id: old.leadId,
      distribution_id: tenant.distributionId,
      received_at: LONG_AGO,
      status: 200,
      caller: 'token:x',
      origin: null,
      kind: 'CUSTOMER' as const,
      payload: '{}',
    }));
    for (let i = 0; i < extra.length; i += 200)
      await db()
        .insertInto('lead_pushes')
        .values(extra.slice(i, i + 200))
        .execute();
    await db().updateTable('lead_pushes').set({ received_at: LONG_AGO }).where('lead_id', '=', old.leadId).execute();
    const before = await callApi(server, tenant, 'GET', `${d()}/leads/${old.leadId}`);

    // With no period set there is nothing to run: said on stderr, exit 1, nothing removed.
    const unset = await runCli(server.database.env, ['retention', 'run']);
    expect([unset.code, unset.stdout]).toEqual([1, '']);
    expect(unset.stderr).toContain('no retention period is set');
    expect(await pushCount(old.leadId)).toBe(1_101);
    const report = await retention({ RETENTION_PUSH_LOG: '30d' });
    expect(report).toMatchObject({ ran: true, push_log: 1_101, webhook_events: 0, leads: 0 });
    expect(await pushCount(old.leadId)).toBe(0);
    expect(await pushCount(recent.leadId)).toBe(1);
    expect((await callApi(server, tenant, 'GET', `${d()}/leads/${old.leadId}`)).body).toEqual(before.body);
  });

  it('removes delivered and failed webhook events older than RETENTION_WEBHOOK_EVENTS, never a pending one', async () => {
    const lead = await newLead();
    const events = await db().selectFrom('webhook_events').select('id').where('lead_id', '=', lead.leadId).execute();
    expect(events).toHaveLength(1);
    await db().updateTable('webhook_events').set({ created_at: LONG_AGO }).where('lead_id', '=', lead.leadId).execute();
    const eventIds = events.map((event) => event.id);
    await db()
      .updateTable('webhook_deliveries')
      // Not due, and taken from a worker that may hold it now: it stays pending.
      .set({ status: 'pending', next_attempt_at: '2999-01-01T00:00:00.000Z', claim_id: null })
      .where('event_id', 'in', eventIds)
      .execute();
    expect((await retention({ RETENTION_WEBHOOK_EVENTS: '1d' })).webhook_events).toBe(0);
    await db().updateTable('webhook_deliveries').set({ status: 'failed' }).where('event_id', 'in', eventIds).execute();
    const report = await retention({ RETENTION_WEBHOOK_EVENTS: '1d' });
    expect(report).toMatchObject({ webhook_events: 1, webhook_deliveries: 1 });
    expect(
      await db().selectFrom('webhook_deliveries').select('id').where('event_id', 'in', eventIds).execute(),
    ).toEqual([]);
  });

  it('erases leads unchanged for longer than RETENTION_LEADS, as an erasure request would', async () => {
    const person = await pushRichPerson(server, tenant);
    const fresh = await pushRichPerson(server, tenant);
    // Pushed, worked and noted long ago (a note or a status change counts as a change).
    await db().updateTable('leads').set({ updated_at: LONG_AGO }).where('id', '=', person.leadId).execute();
    await db().updateTable('lead_changes').set({ changed_at: LONG_AGO }).where('lead_id', '=', person.leadId).execute();
    await db().updateTable('lead_notes').set({ created_at: LONG_AGO }).where('lead_id', '=', person.leadId).execute();
    const report = await retention({ RETENTION_LEADS: '400d' });
    expect(report).toMatchObject({ ran: true, leads: 1 });
    const gone = await callApi(server, tenant, 'GET', `${d()}/parties/${person.partyId}`);
    expect(gone.status).toBe(410);
    expect(await tablesContaining(server.database.handle, person.marker)).toEqual([]);
    expect((await callApi(server, tenant, 'GET', `${d()}/parties/${fresh.partyId}`)).status).toBe(200);
    const audit = await cliJson<any[]>(server.database.env, ['audit', 'list']);
    expect(audit.find((entry) => entry.party_id === person.partyId)).toMatchObject({
      action: 'erase',
      actor: 'retention',
    });
    const resync = await pushLead(server, tenant, 'customers', {
      prospect: {
        first_name: 'Back',
        last_name: 'Again',
        external_refs: [{ external_ref: person.ref, external_ref_company: 'crm' }],
      },
    });
    expect(resync.status).toBe(409);
  });

  it('never erases a lead being worked: a note or a status change counts as a change', async () => {
    const noted = await pushRichPerson(server, tenant);
    const worked = await pushRichPerson(server, tenant);
    // Pushed long ago; since then, only a broker's note (pushRichPerson wrote one just now).
    for (const person of [noted, worked]) {
      await db().updateTable('leads').set({ updated_at: LONG_AGO }).where('id', '=', person.leadId).execute();
      await db()
        .updateTable('lead_changes')
        .set({ changed_at: LONG_AGO })
        .where('lead_id', '=', person.leadId)
        .execute();
    }
    await db().updateTable('lead_notes').set({ created_at: LONG_AGO }).where('lead_id', '=', worked.leadId).execute();
    // ...and the other one's broker moves it on today.
    const patched = await callApi(server, tenant, 'PATCH', `${d()}/leads/${worked.leadId}`, {
      body: { status: 'contacted' },
    });
    expect(patched.status).toBe(200);

    expect(await retention({ RETENTION_LEADS: '400d' })).toMatchObject({ ran: true, leads: 0 });
    for (const person of [noted, worked])
      expect((await callApi(server, tenant, 'GET', `${d()}/parties/${person.partyId}`)).status).toBe(200);

    // Once the note is as old as the rest, the lead is unchanged, and goes.
    await db().updateTable('lead_notes').set({ created_at: LONG_AGO }).where('lead_id', '=', noted.leadId).execute();
    expect(await retention({ RETENTION_LEADS: '400d' })).toMatchObject({ ran: true, leads: 1 });
    expect((await callApi(server, tenant, 'GET', `${d()}/parties/${noted.partyId}`)).status).toBe(410);
    expect((await callApi(server, tenant, 'GET', `${d()}/parties/${worked.partyId}`)).status).toBe(200);
  });

  it('runs one pass at a time across processes: a live lease elsewhere means nothing is removed', async () => {
    const lead = await newLead();
    await db().updateTable('lead_pushes').set({ received_at: LONG_AGO }).where('lead_id', '=', lead.leadId).execute();
    await db()
      .insertInto('background_leases')
      .values({ name: 'retention', holder: 'another process', expires_at: '2999-01-01T00:00:00.000Z' })
      .execute();
    expect(await retention({ RETENTION_PUSH_LOG: '30d' })).toMatchObject({ ran: false, push_log: 0 });
    expect(await pushCount(lead.leadId)).toBe(1);
    // The other process died: its lease runs out, and the next pass runs.
    await db().updateTable('background_leases').set({ expires_at: LONG_AGO }).where('name', '=', 'retention').execute();
    expect(await retention({ RETENTION_PUSH_LOG: '30d' })).toMatchObject({ ran: true, push_log: 1 });
    expect(await db().selectFrom('background_leases').selectAll().execute()).toEqual([]);
  });
});

describe('the background task', () => {
  it('runs in the server when a period is set', async () => {
    const own = await startTestServer({ RETENTION_PUSH_LOG: '30d', RETENTION_INTERVAL: '1s' });
    try {
      const t = await createTenant(own.database.handle, ['leads:write']);
      const pushed = await pushLead(own, t, 'customers', { prospect: { first_name: 'A', last_name: 'B' } });
      const ownDb = own.database.handle.db;
      await ownDb
        .updateTable('lead_pushes')
        .set({ received_at: LONG_AGO })
        .where('lead_id', '=', pushed.body.id)
        .execute();
      await eventually(
        async () => (await ownDb.selectFrom('lead_pushes').select('id').execute()).length === 0,
        10_000,
        'the pass',
      );
      expect(await ownDb.selectFrom('leads').select('id').execute()).toHaveLength(1);
    } finally {
      await own.close();
    }
  });
});
