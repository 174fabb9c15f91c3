// Where leads come from, folded in bounded steps and outliving the push log (docs/design.md
// section 16, "How far behind the sources may be"). A long push log (a service upgraded with a
// year of pushes) is folded a batch at a time, each its own transaction, so pushes commit
// between them, and the figures read the same at every step as before any fold. A lead whose
// creating push the push log's retention removed still moves its counts when its status
// changes, under the sender the pushes were folded under (an SSO client's too).
// The server runs no projector of its own here: the test runs one step by step.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApiToken } from '../src/auth/api-token.service.ts';
import { brusselsDay } from '../src/brussels-days.ts';
import { createTransactionRunner, type TransactionRunner } from '../src/db/transaction-runner.ts';
import { insertDistribution } from '../src/distributions/distribution.repository.ts';
import { InboxProjection, RefHashes, RetentionService } from '../src/party/index.ts';
import { WebhookOutbox } from '../src/webhooks/webhook.outbox.ts';
import { callApi } from './support/api-client.ts';
import { pushLead } from './support/lead-client.ts';
import { createSsoFixture, signInForTokens } from './support/sso.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

let server: TestServer;
let transactions: TransactionRunner;

beforeAll(async () => {
  server = await startTestServer({ INBOX_PROJECTOR: 'false' });
  transactions = createTransactionRunner(server.database.handle);
});
afterAll(async () => {
  await transactions?.close();
  await server?.close();
});

const SCOPES = ['leads:write', 'leads:read', 'parties:update'];
const BATCH = 3;

async function distribution() {
  const db = server.database.handle.db;
  const { id } = await insertDistribution(db, 'Sources');
  const via = async (name: string) => {
    const token = await createApiToken(db, { distributionId: id, scopes: SCOPES, name });
    return { distributionId: id, token: token.token, sender: `token:${token.id}` };
  };
  return { id, web: await via('website'), portal: await via('portal'), late: await via('late') };
}

type Via = Awaited<ReturnType<typeof distribution>>['web'];
type Counts = Record<string, unknown>;
type Stats = { origins: Counts[]; senders: Counts[]; weeks: Array<{ received: number; won: number }> };

const push = (via: Via, origin: string, ref: string) =>
  pushLead(server, via, 'customers', {
    origin,
    prospect: { first_name: 'Lead', last_name: ref, external_refs: [{ external_ref: ref, external_ref_company: 'x' }] },
  });

const patch = (via: Via, leadId: string, body: object) =>
  callApi(server, via, 'PATCH', `/distributions/${via.distributionId}/leads/${leadId}`, { body });

/** Today's figures (Brussels days) as the API answers them, each list in the order of its names. */
async function stats(via: Via): Promise<Stats> {
  const today = brusselsDay(Date.now());
  const path = `/distributions/${via.distributionId}/stats/sources?from=${today}&to=${today}`;
  const reply = await callApi(server, via, 'GET', path);
  expect(reply.status).toBe(200);
  const body = reply.body as Stats;
  const by = (key: string) => (a: Counts, b: Counts) => String(a[key]).localeCompare(String(b[key]));
  return { ...body, origins: body.origins.toSorted(by('origin')), senders: body.senders.toSorted(by('sender')) };
}

async function mark(distributionId: string): Promise<string> {
  const row = await server.database.handle.db
    .selectFrom('lead_projections')
    .select('sourced_to')
    .where('distribution_id', '=', distributionId)
    .executeTakeFirst();
  return row?.sourced_to ?? '';
}

async function stamps(distributionId: string): Promise<string[]> {
  const rows = await server.database.handle.db
    .selectFrom('lead_pushes')
    .select('received_at')
    .where('distribution_id', '=', distributionId)
    .orderBy('received_at')
    .execute();
  return rows.map((row) => row.received_at);
}

/** The projector, its transactions observed: `afterCommit` runs after each one commits, before the next begins. */
function projector(afterCommit: () => Promise<void>): InboxProjection {
  const observed: TransactionRunner = {
    async run(work) {
      const value = await transactions.run(work);
      await afterCommit();
      return value;
    },
    close: () => transactions.close(),
  };
  return new InboxProjection({ database: server.database.handle, transactions: observed, sourcesPerBatch: BATCH });
}

it('folds a push log longer than a batch in several transactions, pushes committing between them, the figures the same at every step', async () => {
  const d = await distribution();
  const leads: Array<{ id: string; via: Via }> = [];
  for (let i = 0; i < 10; i++) {
    const via = i % 3 === 0 ? d.portal : d.web;
    const pushed = await push(via, i % 3 === 0 ? 'portal' : 'web', `R${i % 8}`);
    expect(pushed.status).toBe(i < 8 ? 201 : 200);
    if (pushed.status === 201) leads.push({ id: pushed.body.id, via });
  }
  for (const [i, status] of ['contacted', 'contacted', 'won', 'quoted', 'contacted'].entries())
    expect((await patch(leads[i]!.via, leads[i]!.id, { status })).status).toBe(200);
  const backlog = await stamps(d.id);
  expect(backlog).toHaveLength(10);

  // Nothing folded yet: every push is read past the mark, as before batching.
  const expected = await stats(d.web);
  expect(expected.origins.find((o) => o.origin === 'web')).toMatchObject({ received: 6, created: 5, merged: 1 });

  const marks: string[] = [];
  let now = expected;
  const folding = projector(async () => {
    const at = await mark(d.id);
    if (at === marks.at(-1)) return;
    marks.push(at);
    // What each step folded: some of the pushes, at most a batch, never all of them at once.
    const folded = (upTo: string) => backlog.filter((stamp) => stamp < upTo).length;
    const step = folded(at) - folded(marks.at(-2) ?? '');
    expect(step).toBeGreaterThan(0);
    expect(step).toBeLessThanOrEqual(BATCH);
    expect(await stats(d.web)).toEqual(now);
    if (marks.length !== 1) return;
    // After the first step: a push commits, and a status change of a lead already folded and
    // of one not yet folded each moves its count.
    const [counted, waiting] = [leads[0]!, leads[4]!];
    expect([backlog[0]! < at, backlog[4]! < at]).toEqual([true, false]);
    expect((await push(d.late, 'late', 'L')).status).toBe(201);
    for (const lead of [counted, waiting])
      expect((await patch(lead.via, lead.id, { status: 'quoted' })).status).toBe(200);
    now = afterTheFirstStep(expected, d);
    expect(await stats(d.web)).toEqual(now);
  });
  await folding.runOnce();

  expect(marks.length).toBeGreaterThanOrEqual(Math.ceil(backlog.length / BATCH));
  expect(marks.at(-1)! > (await stamps(d.id)).at(-1)!).toBe(true);
  expect(await stats(d.web)).toEqual(now);
});

it('folds the pushes that share one stamp in one step, however many more than a batch they are', async () => {
  const d = await distribution();
  const pushed: string[] = [];
  for (let i = 0; i < BATCH + 2; i++) {
    const reply = await push(d.web, 'web', `S${i}`);
    expect(reply.status).toBe(201);
    pushed.push(reply.body.id);
  }
  // One writer's moment for all of them, as the rows of a batch pushed at once may share it.
  const db = server.database.handle.db;
  const [first] = await stamps(d.id);
  await db.updateTable('lead_pushes').set({ received_at: first! }).where('distribution_id', '=', d.id).execute();
  await db.updateTable('leads').set({ created_at: first! }).where('id', 'in', pushed).execute();
  expect((await patch(d.web, pushed[0]!, { status: 'won' })).status).toBe(200);
  const expected = await stats(d.web);
  expect(expected.origins).toEqual([expect.objectContaining({ origin: 'web', received: BATCH + 2, won: 1 })]);

  const marks: string[] = [];
  await projector(async () => {
    const at = await mark(d.id);
    if (at !== marks.at(-1)) marks.push(at);
  }).runOnce();
  expect(marks).toHaveLength(1);
  expect(marks[0]! > first!).toBe(true);
  expect(await stats(d.web)).toEqual(expected);
});

/** The figures once the late push (its own origin and sender) came and a lead of each source moved from contacted to quoted. */
function afterTheFirstStep(before: Stats, d: Awaited<ReturnType<typeof distribution>>): Stats {
  const quoted = (row: Counts) => ({ ...row, contacted: Number(row.contacted) - 1, quoted: Number(row.quoted) + 1 });
  const late = { received: 1, created: 1, merged: 0, contacted: 0, quoted: 0, won: 0, lost: 0, win_rate: 0 };
  return {
    ...before,
    origins: [
      { origin: 'late', ...late, median_hours_to_first_status: null },
      ...before.origins.map((row) => quoted(row)),
    ],
    senders: [
      ...before.senders.map((row): Counts => quoted(row)),
      { sender: d.late.sender, ...late, median_hours_to_first_status: null },
    ].toSorted((a, b) => String(a.sender).localeCompare(String(b.sender))),
    weeks: before.weeks.map((week) => ({ ...week, received: week.received + 1 })),
  };
}

it('moves the counts of a lead whose creating push the push log’s retention removed, under the sender it was folded under', async () => {
  const d = await distribution();
  const web = await push(d.web, 'web', 'K1');
  const other = await push(d.web, 'web', 'K2');
  const fixture = await createSsoFixture(server, undefined, { language: 'en' });
  const bearer = `Bearer ${(await signInForTokens(server, fixture, 'openid api')).access_token}`;
  const sso = await callApi(server, bearer, 'POST', `/distributions/${fixture.distributionId}/leads/customers`, {
    body: { origin: 'crm', prospect: { first_name: 'Wout', last_name: 'Maes' } },
  });
  expect([web.status, other.status, sso.status]).toEqual([201, 201, 201]);
  await projector(async () => {}).runOnce();

  // Every push so far removed by retention, as a pass a minute from now with a period of 1 ms would.
  const retention = new RetentionService({
    database: server.database.handle,
    transactions,
    refHashes: new RefHashes(server.database.handle.db),
    outbox: new WebhookOutbox(),
    retention: { pushLogMs: 1, webhookEventsMs: undefined, leadsMs: undefined, intervalMs: 600_000 },
  });
  const report = await retention.runPass(new Date(Date.now() + 60_000));
  expect(report.push_log).toBeGreaterThanOrEqual(3);
  expect(await stamps(d.id)).toEqual([]);

  expect((await patch(d.web, web.body.id, { status: 'contacted' })).status).toBe(200);
  expect((await patch(d.web, other.body.id, { status: 'won' })).status).toBe(200);
  expect((await patch(d.web, web.body.id, { status: 'quoted' })).status).toBe(200);
  const figures = await stats(d.web);
  expect(figures.origins).toEqual([
    expect.objectContaining({ origin: 'web', received: 2, created: 2, contacted: 0, quoted: 1, won: 1, win_rate: 0.5 }),
  ]);
  expect(figures.senders).toEqual([
    expect.objectContaining({ sender: d.web.sender, received: 2, created: 2, quoted: 1, won: 1 }),
  ]);
  expect(figures.origins[0]!.median_hours_to_first_status).toBe(0);

  // A signed-in user's leads count under the SSO client their pushes came through, and so do
  // their changes: one whose push retention removed, and one pushed since.
  const path = `/distributions/${fixture.distributionId}`;
  const again = await callApi(server, bearer, 'POST', `${path}/leads/customers`, {
    body: { origin: 'crm', prospect: { first_name: 'Els', last_name: 'Maes' } },
  });
  expect(again.status).toBe(201);
  await projector(async () => {}).runOnce();
  for (const lead of [sso.body.id, again.body.id])
    expect((await callApi(server, bearer, 'PATCH', `${path}/leads/${lead}`, { body: { status: 'won' } })).status).toBe(
      200,
    );
  const today = brusselsDay(Date.now());
  const client = await callApi(server, bearer, 'GET', `${path}/stats/sources?from=${today}&to=${today}`);
  expect(client.body.senders).toEqual([
    expect.objectContaining({ sender: `client:${fixture.client.client_id}`, received: 2, created: 2, won: 2 }),
  ]);
});
