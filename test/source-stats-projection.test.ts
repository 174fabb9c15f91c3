// Where leads come from behind the pushes (docs/design.md section 13, "How far behind the
// sources may be"): a push writes none of the sums; the inbox projector folds it in after
// the commit. A reader never sees the difference: a push counts as soon as it has answered,
// once and only once before and after the projector has passed it, through status changes
// (moved by the broker's own write), a merge and an erasure (which keep what was counted),
// and with two processes' projectors at work on one PostgreSQL.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApiToken } from '../src/auth/api-token.service.ts';
import { brusselsDay } from '../src/brussels-days.ts';
import { openDatabase } from '../src/db/database.ts';
import * as pinMigration from '../src/db/migrations/2026-11-30T09-00_pin_ambiguous_created_sources.ts';
import { createTransactionRunner } from '../src/db/transaction-runner.ts';
import { insertDistribution } from '../src/distributions/distribution.repository.ts';
import { InboxProjection } from '../src/party/index.ts';
import { callApi } from './support/api-client.ts';
import { eventually } from './support/eventually.ts';
import { pushLead } from './support/lead-client.ts';
import { dialect, startTestServer, type TestServer } from './support/test-server.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

const SCOPES = ['leads:write', 'leads:read', 'parties:update', 'parties:read', 'parties:erase'];

async function distribution() {
  const db = server.database.handle.db;
  const { id } = await insertDistribution(db, 'Sources');
  const web = await createApiToken(db, { distributionId: id, scopes: SCOPES, name: 'website' });
  const portal = await createApiToken(db, { distributionId: id, scopes: SCOPES, name: 'portal' });
  const via = (token: { id: string; token: string }) => ({
    distributionId: id,
    token: token.token,
    sender: `token:${token.id}`,
  });
  return { id, web: via(web), portal: via(portal) };
}

type Via = Awaited<ReturnType<typeof distribution>>['web'];

const push = (via: Via, origin: string, ref: string) =>
  pushLead(server, via, 'customers', {
    origin,
    prospect: { first_name: 'Lead', last_name: ref, external_refs: [{ external_ref: ref, external_ref_company: 'x' }] },
  });

type Stats = {
  origins: Array<Record<string, unknown>>;
  senders: Array<Record<string, unknown>>;
  weeks: Array<{ received: number; won: number }>;
};

/**
 * Today's figures (Brussels days), as the API answers them; checked against those of this
 * whole week, read from the rows of the week (once folded) rather than the day's.
 */
async function stats(d: { id: string; web: Via }): Promise<Stats> {
  const ask = async (from: string, to: string) => {
    const reply = await callApi(server, d.web, 'GET', `/distributions/${d.id}/stats/sources?from=${from}&to=${to}`);
    expect(reply.status).toBe(200);
    return reply.body as Stats;
  };
  const today = brusselsDay(Date.now());
  const monday = new Date(
    Date.parse(`${today}T00:00:00Z`) - ((new Date(`${today}T00:00:00Z`).getUTCDay() + 6) % 7) * 86_400_000,
  );
  const sunday = new Date(monday.getTime() + 6 * 86_400_000);
  const [day, week] = await Promise.all([
    ask(today, today),
    ask(monday.toISOString().slice(0, 10), sunday.toISOString().slice(0, 10)),
  ]);
  expect({ origins: week.origins, senders: week.senders }).toEqual({ origins: day.origins, senders: day.senders });
  return day;
}

/** Whether the projector has folded every push of the distribution so far into the sums. */
async function folded(distributionId: string): Promise<boolean> {
  const db = server.database.handle.db;
  const [last, mark] = await Promise.all([
    db
      .selectFrom('lead_pushes')
      .select('received_at')
      .where('distribution_id', '=', distributionId)
      .orderBy('received_at', 'desc')
      .limit(1)
      .executeTakeFirst(),
    db
      .selectFrom('lead_projections')
      .select('sourced_to')
      .where('distribution_id', '=', distributionId)
      .executeTakeFirst(),
  ]);
  return last !== undefined && mark !== undefined && mark.sourced_to > last.received_at;
}

const origin = (body: Awaited<ReturnType<typeof stats>>, name: string) => body.origins.find((o) => o.origin === name);

it('counts a push as soon as it has answered, and once only after the projector has passed it, through status changes, a merge and an erasure', async () => {
  const d = await distribution();
  const a = await push(d.web, 'web', 'A');
  const b = await push(d.web, 'web', 'B');
  const c = await push(d.portal, 'portal', 'C');
  expect((await push(d.web, 'web', 'A')).status).toBe(200);
  const patch = (id: string, status: string) =>
    callApi(server, d.web, 'PATCH', `/distributions/${d.id}/leads/${id}`, {
      body: status === 'lost' ? { status, lost_reason: 'price' } : { status },
    });
  expect((await patch(a.body.id, 'contacted')).status).toBe(200);

  const atOnce = await stats(d);
  expect(origin(atOnce, 'web')).toMatchObject({ received: 3, created: 2, merged: 1, contacted: 1, won: 0 });
  expect(origin(atOnce, 'portal')).toMatchObject({ received: 1, created: 1, merged: 0, contacted: 0 });
  expect(atOnce.weeks.reduce((sum, w) => sum + w.received, 0)).toBe(4);
  // A's first change came a moment after its push: within the first bucket's five minutes.
  expect(origin(atOnce, 'web')!.median_hours_to_first_status).toBe(0);

  await eventually(() => folded(d.id), 20_000, 'the projector past the pushes');
  expect(await stats(d)).toEqual(atOnce);

  // Changes of counted leads move their counts in the change's own transaction.
  expect((await patch(a.body.id, 'quoted')).status).toBe(200);
  expect((await patch(b.body.id, 'won')).status).toBe(200);
  const changed = await stats(d);
  expect(origin(changed, 'web')).toMatchObject({
    received: 3,
    created: 2,
    contacted: 0,
    quoted: 1,
    won: 1,
    win_rate: 0.5,
    median_hours_to_first_status: 0,
  });
  expect(changed.senders.find((s) => s.sender === d.web.sender)).toMatchObject({ quoted: 1, won: 1 });
  expect(changed.weeks.reduce((sum, w) => sum + w.won, 0)).toBe(1);

  // C (the portal's) merged into A (the website's): what each sent stays counted where it was;
  // A's later change moves A's count, under the website.
  const merged = await callApi(server, d.web, 'POST', `/distributions/${d.id}/parties/${a.body.party_id}/merge`, {
    body: { from: c.body.party_id },
  });
  expect(merged.status).toBe(200);
  expect(await stats(d)).toEqual(changed);
  expect((await patch(a.body.id, 'won')).status).toBe(200);
  const afterMerge = await stats(d);
  expect(origin(afterMerge, 'web')).toMatchObject({ quoted: 0, won: 2, win_rate: 1 });
  expect(origin(afterMerge, 'portal')).toMatchObject({ received: 1, created: 1, quoted: 0, won: 0 });

  // An erasure leaves the counts, which name no one (section 14): B stays won. But an origin
  // only the erased person's pushes carried (a partner's free text) goes with them.
  const own = await push(d.portal, 'Ms Only E. Xample', 'E');
  await eventually(() => folded(d.id), 20_000, 'the projector past E');
  expect(origin(await stats(d), 'Ms Only E. Xample')).toMatchObject({ received: 1 });
  for (const party of [b.body.party_id, own.body.party_id]) {
    const erased = await callApi(server, d.web, 'DELETE', `/distributions/${d.id}/parties/${party}`);
    expect(erased.status).toBe(200);
  }
  const afterErasure = await stats(d);
  expect(afterErasure.origins).toEqual(afterMerge.origins);
  // The sender's count of E stays: a sender is an API token, not the person.
  const portal = (body: Stats) => body.senders.find((s) => s.sender === d.portal.sender)!;
  expect(portal(afterErasure)).toEqual({ ...portal(afterMerge), received: 2, created: 2, win_rate: 0 });

  // A push after all of it: counted at once, and once after the projector.
  expect((await push(d.portal, 'web', 'D')).status).toBe(201);
  const last = await stats(d);
  expect(origin(last, 'web')).toMatchObject({ received: 4, created: 3, won: 2 });
  expect(portal(last)).toMatchObject({ received: 3, created: 3 });
  await eventually(() => folded(d.id), 20_000, 'the projector past the last push');
  expect(await stats(d)).toEqual(last);
});

/** The lead marked won, then the sums of the website's and the portal's origins. */
async function wonAndCounted(d: Awaited<ReturnType<typeof distribution>>, leadId: string) {
  const won = await callApi(server, d.web, 'PATCH', `/distributions/${d.id}/leads/${leadId}`, {
    body: { status: 'won' },
  });
  expect(won.status).toBe(200);
  const after = await stats(d);
  return { web: origin(after, 'web'), portal: origin(after, 'portal') };
}

/**
 * A (pushed by the website) and C (by the portal), C's lead and its creating push stamped at
 * A's millisecond, as two concurrent pushes can be, then C merged into A: A's push log holds
 * two pushes that answered 201 at its created_at.
 */
async function mergedAtOneMillisecond(d: Awaited<ReturnType<typeof distribution>>) {
  const a = await push(d.web, 'web', 'SAME-A');
  const c = await push(d.portal, 'portal', 'SAME-C');
  const db = server.database.handle.db;
  const { created_at: at } = await db
    .selectFrom('leads')
    .select('created_at')
    .where('id', '=', a.body.id)
    .executeTakeFirstOrThrow();
  await db.updateTable('leads').set({ created_at: at }).where('id', '=', c.body.id).execute();
  await db.updateTable('lead_pushes').set({ received_at: at }).where('lead_id', '=', c.body.id).execute();
  await eventually(() => folded(d.id), 20_000, 'the projector past both pushes');
  const merged = await callApi(server, d.web, 'POST', `/distributions/${d.id}/parties/${a.body.party_id}/merge`, {
    body: { from: c.body.party_id },
  });
  expect(merged.status).toBe(200);
  return { a, at };
}

it('moves the survivor’s own source once after a merge of a lead created at the same millisecond', async () => {
  const d = await distribution();
  const { a } = await mergedAtOneMillisecond(d);
  // Its status change still moves A's own source's count, once (it was a 500 on PostgreSQL,
  // and counted twice on SQLite).
  expect(await wonAndCounted(d, a.body.id)).toMatchObject({
    web: { received: 1, created: 1, won: 1 },
    portal: { received: 1, created: 1, won: 0 },
  });
});

/**
 * A lead as a merge left it before the merge pinned its survivor's source: merged at one
 * millisecond, and A keeps no source of its own.
 */
async function mergedBeforeThePin(d: Awaited<ReturnType<typeof distribution>>) {
  const { a, at } = await mergedAtOneMillisecond(d);
  const db = server.database.handle.db;
  await db
    .updateTable('leads')
    .set({ created_origin: null, created_sender: null })
    .where('id', '=', a.body.id)
    .execute();
  const creating = await db
    .selectFrom('lead_pushes')
    .select(['id', 'origin'])
    .where('lead_id', '=', a.body.id)
    .where('received_at', '=', at)
    .where('status', '=', 201)
    .orderBy('id')
    .execute();
  expect(creating.map((p) => p.origin)).toEqual(['web', 'portal']);
  return a;
}

it('merges again into a lead merged before the pin, which keeps the first of its two creating pushes’ sources', async () => {
  const d = await distribution();
  const a = await mergedBeforeThePin(d);
  const other = await push(d.portal, 'portal', 'PIN-D');
  // The pin's subquery found two creating pushes: PostgreSQL refused the merge (a 500).
  const merged = await callApi(server, d.web, 'POST', `/distributions/${d.id}/parties/${a.body.party_id}/merge`, {
    body: { from: other.body.party_id },
  });
  expect(merged.status).toBe(200);
  expect(await wonAndCounted(d, a.body.id)).toMatchObject({
    web: { received: 1, created: 1, won: 1 },
    portal: { received: 2, created: 2, won: 0 },
  });
});

it('pins, by its migration, the first creating push’s source of a lead merged before the pin, and no other lead', async () => {
  const d = await distribution();
  const a = await mergedBeforeThePin(d);
  const alone = await push(d.portal, 'portal', 'PIN-B');
  const db = server.database.handle.db;
  await pinMigration.up(db);
  const pinned = await db
    .selectFrom('leads')
    .select(['id', 'created_origin', 'created_sender'])
    .where('id', 'in', [a.body.id, alone.body.id])
    .execute();
  expect(pinned.find((l) => l.id === a.body.id)).toMatchObject({ created_origin: 'web', created_sender: d.web.sender });
  expect(pinned.find((l) => l.id === alone.body.id)).toMatchObject({ created_origin: null, created_sender: null });
  // Its status change now moves that source's count, once (it was both sources', or a 500 on PostgreSQL).
  expect(await wonAndCounted(d, a.body.id)).toMatchObject({
    web: { received: 1, created: 1, won: 1 },
    portal: { received: 2, created: 2, won: 0 },
  });
});

it.skipIf(dialect !== 'postgres')(
  'counts every push once while two processes’ projectors fold at the same time as pushes and status changes',
  async () => {
    const d = await distribution();
    // A second process's projector: its own pool on the same database, beside the server's own.
    const other = openDatabase({
      databaseUrl: server.database.env.DATABASE_URL,
      dataDir: '',
      sqliteSynchronous: 'NORMAL',
    });
    const projectors = [server.database.handle, other].map(
      (database) => new InboxProjection({ database, transactions: createTransactionRunner(database) }),
    );
    let pushing = true;
    const folding = projectors.map(async (projection) => {
      while (pushing) await projection.runOnce();
    });
    try {
      const leads: string[] = [];
      await Promise.all(
        Array.from({ length: 6 }, async (_, worker) => {
          for (let i = 0; i < 10; i++) {
            const via = worker % 2 === 0 ? d.web : d.portal;
            const pushed = await push(via, `origin-${worker % 3}`, `R${worker}-${i % 7}`);
            expect([200, 201]).toContain(pushed.status);
            if (pushed.status === 201) leads.push(pushed.body.id);
            if (i % 3 === 0)
              expect(
                (
                  await callApi(server, via, 'PATCH', `/distributions/${d.id}/leads/${pushed.body.id}`, {
                    body: { status: i % 2 === 0 ? 'won' : 'contacted' },
                  })
                ).status,
              ).toBe(200);
          }
        }),
      );
      const live = await stats(d);
      await eventually(() => folded(d.id), 20_000, 'the projectors past the pushes');
      pushing = false;
      await Promise.all(folding);
      const after = await stats(d);
      expect(after).toEqual(live);
      const total = (body: typeof after, key: string) => body.origins.reduce((sum, o) => sum + Number(o[key]), 0);
      expect(total(after, 'received')).toBe(60);
      expect(total(after, 'created')).toBe(leads.length);
      // The statuses the leads have now, counted from the leads themselves.
      const now = await server.database.handle.db
        .selectFrom('leads')
        .select(['status'])
        .where('distribution_id', '=', d.id)
        .execute();
      for (const status of ['contacted', 'won'])
        expect(total(after, status), status).toBe(now.filter((lead) => lead.status === status).length);
    } finally {
      pushing = false;
      await Promise.all(folding);
      await other.close();
    }
  },
);
