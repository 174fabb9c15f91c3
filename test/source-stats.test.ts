// Where leads come from through the API, on both databases (docs/design.md section 13):
// GET .../stats/sources counts a period's pushes per origin and per sender (API token, or the
// SSO client a signed-in user pushed through),
// the leads they created by the status they have now, the win rate and the median hours to
// the first status change, per week too; as CSV; refusals on its dates and scopes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiToken } from '../src/auth/api-token.service.ts';
import { insertDistribution } from '../src/distributions/distribution.repository.ts';
import { brusselsDay } from '../src/brussels-days.ts';
import { callApi } from './support/api-client.ts';
import { createBroker, openSignedIn, UserAgent } from './support/broker-app.ts';
import { pushLead } from './support/lead-client.ts';
import { createSsoFixture, signInForTokens } from './support/sso.ts';
import { createTenant, startTestServer, type TestServer } from './support/test-server.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

/** The Brussels day it is: the days of the statistics are the inbox's. */
const today = () => brusselsDay(Date.now());
const SCOPES = ['leads:write', 'leads:read', 'parties:update'];

async function distribution() {
  const db = server.database.handle.db;
  const { id } = await insertDistribution(db, 'Sources');
  const web = await createApiToken(db, { distributionId: id, scopes: SCOPES, name: 'website' });
  const portal = await createApiToken(db, { distributionId: id, scopes: SCOPES, name: 'portal' });
  return {
    id,
    web: { distributionId: id, token: web.token, sender: `token:${web.id}` },
    portal: { distributionId: id, token: portal.token, sender: `token:${portal.id}` },
  };
}

describe('GET …/stats/sources', () => {
  it('counts pushes and what became of their leads, per origin, per sender and per week', async () => {
    const d = await distribution();
    const push = (via: typeof d.web, origin: string, ref: string) =>
      pushLead(server, via, 'customers', {
        origin,
        prospect: {
          first_name: 'Lead',
          last_name: ref,
          external_refs: [{ external_ref: ref, external_ref_company: 'x' }],
        },
      });
    const a = await push(d.web, 'web', 'A');
    const b = await push(d.web, 'web', 'B');
    await push(d.web, 'web', 'C');
    expect((await push(d.web, 'web', 'A')).status).toBe(200);
    const e = await push(d.portal, 'portal', 'E');
    const patch = (id: string, status: string) =>
      callApi(server, d.web, 'PATCH', `/distributions/${d.id}/leads/${id}`, { body: { status } });
    await patch(a.body.id, 'contacted');
    await patch(a.body.id, 'won');
    await patch(b.body.id, 'lost');
    await patch(e.body.id, 'quoted');
    const path = `/distributions/${d.id}/stats/sources?from=${today()}&to=${today()}`;
    const stats = await callApi(server, d.web, 'GET', path);
    expect(stats.status).toBe(200);
    expect(stats.body.origins.map((o: { origin: string }) => o.origin)).toEqual(['web', 'portal']);
    expect(stats.body.origins[0]).toMatchObject({
      origin: 'web',
      received: 4,
      created: 3,
      merged: 1,
      contacted: 0,
      quoted: 0,
      won: 1,
      lost: 1,
      win_rate: 0.3333,
    });
    // Two of web's leads moved; their first change came a moment after creation.
    expect(stats.body.origins[0].median_hours_to_first_status).toBeGreaterThanOrEqual(0);
    expect(stats.body.origins[0].median_hours_to_first_status).toBeLessThan(1);
    expect(stats.body.origins[1]).toMatchObject({ origin: 'portal', received: 1, created: 1, quoted: 1, win_rate: 0 });
    expect(stats.body.senders).toEqual(
      [
        { ...stats.body.origins[0], origin: undefined, sender: d.web.sender },
        { ...stats.body.origins[1], origin: undefined, sender: d.portal.sender },
      ].map(({ origin: _, ...sender }) => sender),
    );
    expect(stats.body.weeks).toHaveLength(1);
    expect(stats.body.weeks[0]).toMatchObject({ received: 5, won: 1 });
    // Another period sees none of it.
    const before = await callApi(
      server,
      d.web,
      'GET',
      `/distributions/${d.id}/stats/sources?from=2020-01-01&to=2020-01-31`,
    );
    expect(before.body).toMatchObject({ from: '2020-01-01', to: '2020-01-31', origins: [], senders: [] });
    expect(before.body.weeks).toHaveLength(5);

    const csv = await fetch(`${server.url}/v1/api${path}&format=csv`, {
      headers: { authorization: `apikey ${d.web.token}` },
    });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const lines = (await csv.text()).trim().split('\r\n');
    expect(lines[0]).toBe(
      'from,to,group,name,received,created,merged,contacted,quoted,won,lost,win_rate,median_hours_to_first_status',
    );
    expect(lines[1]).toMatch(new RegExp(`^${today()},${today()},origin,web,4,3,1,0,0,1,1,0.3333,`));
    expect(lines[4]).toMatch(new RegExp(`^${today()},${today()},sender,${d.portal.sender},1,1,0,0,1,0,0,0,`));
  });

  it('refuses days that are no days, a period backwards or over a year, another distribution and a token without leads:read', async () => {
    const d = await distribution();
    const ask = (query: string, who: { token: string } = d.web, id = d.id) =>
      callApi(server, who, 'GET', `/distributions/${id}/stats/sources?${query}`);
    for (const [query, target] of [
      ['from=2026-02-30&to=2026-03-01', 'from'],
      ['from=2026-03-01&to=2026-02-01', 'to'],
      ['from=2025-01-01&to=2026-01-02', 'to'],
      ['from=2026-01-01', 'to'],
      ['from=2026-01-01&to=2026-01-02&format=xml', 'format'],
    ] as const) {
      const refused = await ask(query);
      expect(refused.status, query).toBe(422);
      expect(
        refused.body.detail.errors.map((e: { target: string }) => e.target),
        query,
      ).toContain(target);
    }
    expect((await ask('from=2025-01-02&to=2026-01-02')).status).toBe(200);
    const other = await createTenant(server.database.handle, ['leads:read']);
    expect((await ask('from=2026-01-01&to=2026-01-02', other)).status).toBe(403);
    const writer = await createTenant(server.database.handle, ['leads:write']);
    expect((await ask('from=2026-01-01&to=2026-01-02', writer, writer.distributionId)).status).toBe(403);
  });

  it('shows the same figures on /app/sources, with the weekly numbers beside the chart, and as CSV', async () => {
    const broker = await createBroker(server);
    const pushed = await pushLead(server, broker.tenant, 'customers', {
      origin: 'web',
      prospect: { first_name: 'Els', last_name: 'Claes' },
    });
    expect(pushed.status).toBe(201);
    const agent = new UserAgent(server);
    const page = await openSignedIn(agent, `${server.url}/app/sources`, broker.user.username);
    expect(page.status).toBe(200);
    const text = page.body
      .replace(/<style>[^<]*<\/style>/, '')
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' ');
    expect(text).toContain('Where leads come from');
    expect(text).toMatch(/Per origin .* web 1 1 0 0 \(0%\) 0 \(0%\) 0 \(0%\) 0 \(0%\) 0% —/);
    expect(text).toMatch(/Per sender .* API token “[^”]+” 1 1 0/);
    expect(page.body).toContain('<svg class="chart"');
    // Twelve weeks until today, the first page's period: each with a row of numbers.
    expect(page.body.match(/<g><title>/g)!.length).toBeGreaterThanOrEqual(12);
    const csv = await agent.request(`${server.url}/app/sources.csv?from=${today()}&to=${today()}`);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.body).toContain(`${today()},${today()},origin,web,1,1,0,0,0,0,0,0,`);
    expect((await agent.request(`${server.url}/app/sources?from=2026-02-30&to=2026-03-01`)).status).toBe(422);
  });

  it('counts a signed-in user’s pushes under the SSO client they came through, named by it on /app/sources', async () => {
    const fixture = await createSsoFixture(server, undefined, { language: 'en' });
    const bearer = `Bearer ${(await signInForTokens(server, fixture, 'openid api')).access_token}`;
    const d = `/distributions/${fixture.distributionId}`;
    const pushed = await callApi(server, bearer, 'POST', `${d}/leads/customers`, {
      body: { origin: 'crm', prospect: { first_name: 'Wout', last_name: 'Maes' } },
    });
    expect(pushed.status).toBe(201);
    const stats = await callApi(server, bearer, 'GET', `${d}/stats/sources?from=${today()}&to=${today()}`);
    expect(stats.status).toBe(200);
    expect(stats.body.senders).toEqual([
      expect.objectContaining({ sender: `client:${fixture.client.client_id}`, received: 1, created: 1, merged: 0 }),
    ]);
    // The push log still names who pushed: the user.
    const log = await callApi(server, bearer, 'GET', `${d}/leads/${pushed.body.id}/pushes`);
    expect(log.body.items.map((push: { caller: string }) => push.caller)).toEqual([`user:${fixture.user.id}`]);

    const agent = new UserAgent(server);
    const page = await openSignedIn(agent, `${server.url}/app/sources`, fixture.user.username);
    expect(page.status).toBe(200);
    const text = page.body
      .replace(/<style>[^<]*<\/style>/, '')
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' ');
    expect(text).toMatch(/Per sender .* Partner CRM \(signed-in users\) 1 1 0/);
  });
});
