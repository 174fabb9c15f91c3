// The inbox behind the pushes (docs/design.md section 13, "How far behind the inbox may be"):
// a push writes none of the inbox's counts or (SQLite) word index; the inbox projector adds
// them after the commit. A broker never sees the difference: a lead is found by its words and
// counted as soon as its push has answered, once and only once before and after the
// projector has passed it, through merges, status changes and an erasure.
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApiToken } from '../src/auth/api-token.service.ts';
import { callApi } from './support/api-client.ts';
import { createBroker, openSignedIn, UserAgent } from './support/broker-app.ts';
import { eventually } from './support/eventually.ts';
import { pushLead } from './support/lead-client.ts';
import { dialect, startTestServer, type TestServer } from './support/test-server.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

const names = (body: string) =>
  [...body.matchAll(/<th scope="row"><a href="\/app\/parties\/[^"]+">([^<]+)<\/a>/g)].map((m) => m[1]);
const text = (body: string) =>
  body
    .replace(/<style>[^<]*<\/style>/, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ');

/** Whether the projector has passed the lead: counted it and (SQLite) indexed its words as they are now. */
async function projected(leadId: string): Promise<boolean> {
  const db = server.database.handle.db;
  const lead = await db
    .selectFrom('leads')
    .select(['distribution_id', 'created_at', 'updated_at'])
    .where('id', '=', leadId)
    .executeTakeFirstOrThrow();
  const mark = await db
    .selectFrom('lead_projections')
    .selectAll()
    .where('distribution_id', '=', lead.distribution_id)
    .executeTakeFirst();
  if (mark === undefined || !(mark.counted_to > lead.created_at)) return false;
  return dialect === 'postgres' || mark.indexed_at > lead.updated_at;
}

it('finds and counts a lead as soon as its push has answered, and once only after the projector has passed it', async () => {
  const broker = await createBroker(server);
  const crm = await createApiToken(server.database.handle.db, {
    distributionId: broker.tenant.distributionId,
    scopes: ['leads:write', 'leads:read', 'parties:update', 'parties:read', 'parties:erase'],
  });
  const d = `/distributions/${broker.tenant.distributionId}`;
  const agent = new UserAgent(server);
  await openSignedIn(agent, `${server.url}/app`, broker.user.username);
  const search = async (q: string) => names((await agent.request(`${server.url}/app?q=${encodeURIComponent(q)}`)).body);
  const counts = async () =>
    /All \d+ New \d+ Contacted \d+ Quoted \d+ Won \d+ Lost \d+/.exec(
      text((await agent.request(`${server.url}/app`)).body),
    )?.[0];

  const first = await pushLead(server, broker.tenant, 'customers', {
    prospect: { first_name: 'Quirinus', last_name: 'Zwaanswijk' },
  });
  expect(first.status).toBe(201);
  expect(await search('quirin zwaan')).toEqual(['Quirinus Zwaanswijk']);
  expect(await counts()).toBe('All 1 New 1 Contacted 0 Quoted 0 Won 0 Lost 0');

  await eventually(() => projected(first.body.id), 20_000, 'the projector past the first lead');
  expect(await search('quirin zwaan')).toEqual(['Quirinus Zwaanswijk']);
  expect(await counts()).toBe('All 1 New 1 Contacted 0 Quoted 0 Won 0 Lost 0');

  // New words by a merge: found by them at once, no longer by the old ones.
  const merged = await pushLead(server, broker.tenant, 'customers', {
    prospect: { id: first.body.party_id, first_name: 'Ysbrand', last_name: 'Zwaanswijk' },
  });
  expect(merged.status).toBe(200);
  expect(await search('quirin')).toEqual([]);
  expect(await search('ysbr zwaan')).toEqual(['Ysbrand Zwaanswijk']);

  const patch = (leadId: string, body: object) =>
    callApi(server, { token: crm.token }, 'PATCH', `${d}/leads/${leadId}`, { body });
  expect((await patch(first.body.id, { status: 'won' })).status).toBe(200);
  const second = await pushLead(server, broker.tenant, 'customers', {
    prospect: { first_name: 'Ottilie', last_name: 'Zwaanswijk' },
  });
  expect((await patch(second.body.id, { status: 'lost', lost_reason: 'price' })).status).toBe(200);
  expect(await counts()).toBe('All 2 New 0 Contacted 0 Quoted 0 Won 1 Lost 1');
  expect(await search('zwaan')).toEqual(['Ottilie Zwaanswijk', 'Ysbrand Zwaanswijk']);

  await eventually(() => projected(second.body.id), 20_000, 'the projector past the second lead');
  expect(await counts()).toBe('All 2 New 0 Contacted 0 Quoted 0 Won 1 Lost 1');

  expect((await callApi(server, { token: crm.token }, 'DELETE', `${d}/parties/${first.body.party_id}`)).status).toBe(
    200,
  );
  expect(await counts()).toBe('All 1 New 0 Contacted 0 Quoted 0 Won 0 Lost 1');
  expect(await search('zwaan')).toEqual(['Ottilie Zwaanswijk']);
});

it.skipIf(dialect !== 'sqlite')(
  'indexes a pushed lead’s words in the background, with no search asking for them',
  async () => {
    const broker = await createBroker(server);
    const pushed = await pushLead(server, broker.tenant, 'customers', {
      prospect: { first_name: 'Wendelmoet', last_name: 'Achterberg' },
    });
    const db = server.database.handle.db;
    const lead = await sql<{ rowid: number }>`select rowid from leads where id = ${pushed.body.id}`.execute(db);
    // The word index itself, read without a search (which would index what is missing first).
    const indexed = await eventually(async () => {
      const { rows } = await sql<{
        rowid: number;
      }>`select rowid from lead_search where lead_search match ${'"wendelmoet"'}`.execute(db);
      return rows.length > 0 ? rows : undefined;
    });
    expect(indexed).toEqual(lead.rows);
  },
);
