// The inbox as a broker's workplace over real HTTP, on both databases (docs/design.md
// section 16): filters by any colleague and by follow-up day (overdue, today, this week, none,
// by the server's clock), orders by any column (follow-up day, received, last change, name,
// status, assignee, kind, origin) either way with keyset pages that neither repeat nor skip a
// lead, those without a value last, "Leads 1–25 of 27", and the bulk form
// that assigns leads or sets their status, each lead on its own, with a summary.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiToken } from '../src/auth/api-token.service.ts';
import { addDays, brusselsDay } from '../src/brussels-days.ts';
import { createUser } from '../src/sso/index.ts';
import { callApi } from './support/api-client.ts';
import {
  type Broker,
  createBroker,
  type InboxRow as Row,
  inboxRowsOf as rowsOf,
  openSignedIn,
  UserAgent,
} from './support/broker-app.ts';
import { companyLead } from './support/demo-portfolio.ts';
import { countRows, pushLead } from './support/lead-client.ts';
import { inputValue, PASSWORD } from './support/sso.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

const DAY = 86_400_000;

async function signedIn(who: Broker) {
  const agent = new UserAgent(server);
  const landed = await openSignedIn(agent, `${server.url}/app`, who.user.username);
  return { agent, landed };
}
const get = (agent: UserAgent, path: string) => agent.request(`${server.url}${path}`);
const names = (body: string) =>
  [...body.matchAll(/<th scope="row"><a href="\/app\/parties\/[^"]+">([^<]+)<\/a>/g)].map((m) => m[1]);
const caption = (body: string) => /<caption>([^<]*)<\/caption>/.exec(body)?.[1];
const nextLink = (body: string) => /<a href="([^"]+)" rel="next">/.exec(body)?.[1]?.replaceAll('&amp;', '&');

/** A broker's distribution with `count` leads named Lead 01…, pushed in that order, and a token that may PATCH them. */
async function distributionWith(count: number) {
  const broker = await createBroker(server);
  const token = await createApiToken(server.database.handle.db, {
    distributionId: broker.tenant.distributionId,
    scopes: ['leads:write', 'leads:read', 'parties:update'],
  });
  const crm = { distributionId: broker.tenant.distributionId, token: token.token };
  const leads: Array<{ id: string; party_id: string }> = [];
  for (let i = 1; i <= count; i++) {
    const pushed = await pushLead(server, crm, 'customers', {
      origin: i % 3 === 0 ? 'portal' : 'web',
      prospect: { first_name: 'Lead', last_name: String(i).padStart(2, '0') },
    });
    leads.push(pushed.body);
  }
  const patch = (lead: { id: string }, body: object) =>
    callApi(server, crm, 'PATCH', `/distributions/${crm.distributionId}/leads/${lead.id}`, { body });
  return { broker, crm, leads, patch };
}

describe('the inbox’s filters', () => {
  it('finds the leads of any colleague, and by follow-up day as the server’s clock has it', async () => {
    const { broker, leads, patch } = await distributionWith(6);
    const colleague = await createUser(server.database.handle.db, {
      distributionId: broker.tenant.distributionId,
      email: `colleague-${process.pid}-${leads[0]!.id.slice(0, 8)}@example.be`,
      username: `colleague-${process.pid}-${leads[0]!.id.slice(0, 8)}`,
      password: PASSWORD,
    });
    const today = brusselsDay(server.clock.now());
    await patch(leads[0]!, { assignee: colleague.id, follow_up_on: addDays(today, -1) });
    await patch(leads[1]!, { assignee: colleague.id, follow_up_on: today });
    await patch(leads[2]!, { assignee: broker.user.id, follow_up_on: '2099-01-01' });
    const { agent, landed } = await signedIn(broker);
    // The colleague is offered by name in the filter.
    expect(landed.body).toContain(`<option value="${colleague.id}">${colleague.username}</option>`);
    const list = async (query: string) => names((await get(agent, `/app?${query}`)).body);
    expect(await list(`assignee=${colleague.id}`)).toEqual(['Lead 02', 'Lead 01']);
    expect(await list(`assignee=${colleague.id.toUpperCase()}`)).toEqual(['Lead 02', 'Lead 01']);
    expect(await list('assignee=mine')).toEqual(['Lead 03']);
    expect(await list('follow_up=overdue')).toEqual(['Lead 01']);
    expect(await list('follow_up=today')).toEqual(['Lead 02']);
    expect(await list('follow_up=none')).toEqual(['Lead 06', 'Lead 05', 'Lead 04']);
    const week = await list('follow_up=week');
    expect(week).toContain('Lead 02');
    expect(week).not.toContain('Lead 03');
    // A day later, today's follow-up is overdue.
    server.clock.advance(DAY);
    expect(await list('follow_up=overdue&sort=follow_up')).toEqual(['Lead 01', 'Lead 02']);
    expect(await list('follow_up=today')).toEqual([]);
    for (const bad of ['assignee=someone', 'follow_up=later', 'sort=refs', 'dir=up', 'start=0', 'start=x']) {
      const refused = await get(agent, `/app?${bad}`);
      expect(refused.status, bad).toBe(422);
    }
  });
});

describe('the inbox’s order and count', () => {
  it('orders by follow-up day either way, leads without one after, across pages that neither repeat nor skip', async () => {
    const { broker, leads, patch } = await distributionWith(27);
    await patch(leads[4]!, { follow_up_on: '2026-12-03' });
    await patch(leads[9]!, { follow_up_on: '2026-12-01' });
    await patch(leads[14]!, { follow_up_on: '2026-12-01' });
    const { agent } = await signedIn(broker);
    const pages = async (query: string) => {
      const seen: string[] = [];
      const captions: string[] = [];
      let path: string | undefined = `/app?${query}`;
      while (path) {
        const page = await get(agent, path);
        expect(page.status).toBe(200);
        seen.push(...names(page.body).map(String));
        captions.push(caption(page.body)!);
        path = nextLink(page.body);
      }
      return { seen, captions };
    };
    const undated = leads
      .map((_, i) => `Lead ${String(i + 1).padStart(2, '0')}`)
      .filter((name) => !['Lead 05', 'Lead 10', 'Lead 15'].includes(name))
      .reverse();
    const ascending = await pages('sort=follow_up');
    // Two leads on one day: in the order of their ids, which the pages keep.
    expect(ascending.seen.slice(0, 3).sort()).toEqual(['Lead 10', 'Lead 15', 'Lead 05'].sort());
    expect(ascending.seen[2]).toBe('Lead 05');
    expect(ascending.seen.slice(3)).toEqual(undated);
    expect(ascending.captions).toEqual(['Leads 1–25 of 27', 'Leads 26–27 of 27']);
    const descending = await pages('sort=follow_up&dir=desc');
    expect(descending.seen[0]).toBe('Lead 05');
    expect(descending.seen.slice(3)).toEqual(undated);
    expect(new Set(descending.seen).size).toBe(27);
    const received = await pages('sort=received&dir=asc');
    expect(received.seen).toEqual(leads.map((_, i) => `Lead ${String(i + 1).padStart(2, '0')}`));
    // Counted with a filter: the portal's leads are every third.
    const portal = await get(agent, '/app?origin=portal');
    expect(caption(portal.body)).toBe('Leads 1–9 of 9');
    const contacted = await get(agent, '/app?status=contacted');
    expect(contacted.body).toContain('No lead matches these filters.');
  });

  it('orders by name, status, assignee, kind and origin either way, leads without a value last, across two pages', async () => {
    const { broker, crm, leads, patch } = await distributionWith(27);
    // Two more: a company in lower case without an origin, and a person shown as "Bob Baker".
    const company = companyLead();
    const { origin: _, ...noOrigin } = company;
    await pushLead(server, crm, 'companies', {
      ...noOrigin,
      prospect: { ...company.prospect, name: 'acme nv', external_refs: [] },
    });
    await pushLead(server, crm, 'customers', { origin: 'Agent', prospect: { first_name: 'Bob', last_name: 'Baker' } });
    // A name with accents sorts as a broker reads it, and a name changed later sorts as changed.
    const renamed = await pushLead(server, crm, 'customers', {
      origin: 'web',
      prospect: { first_name: 'Zoë', last_name: 'Aalst' },
    });
    const changedName = await callApi(
      server,
      crm,
      'PATCH',
      `/distributions/${crm.distributionId}/parties/${renamed.body.party_id}`,
      { body: { last_name: 'Éclair' }, headers: { 'content-type': 'application/merge-patch+json' } },
    );
    expect(changedName.status).toBe(200);
    const colleague = await createUser(server.database.handle.db, {
      distributionId: broker.tenant.distributionId,
      email: `Zoe-${process.pid}-${leads[0]!.id.slice(0, 8)}@example.be`,
      username: `Zoe-${process.pid}-${leads[0]!.id.slice(0, 8)}`,
      password: PASSWORD,
    });
    await patch(leads[0]!, { assignee: colleague.id, status: 'won' });
    await patch(leads[1]!, { assignee: broker.user.id, status: 'contacted' });
    await patch(leads[2]!, { assignee: colleague.id, status: 'quoted' });
    await patch(leads[3]!, { status: 'lost', lost_reason: 'Chose another insurer' });
    await patch(leads[4]!, { assignee: broker.user.id, status: 'contacted' });
    // 26 assigned leads, 13 each: the second page starts within an assignee's leads.
    for (let i = 5; i < 27; i++) await patch(leads[i]!, { assignee: i % 2 ? broker.user.id : colleague.id });
    const { agent } = await signedIn(broker);
    const pages = async (query: string) => {
      const seen: Row[] = [];
      let path: string | undefined = `/app?${query}`;
      let count = 0;
      while (path) {
        const page = await get(agent, path);
        expect(page.status).toBe(200);
        seen.push(...rowsOf(page.body));
        path = nextLink(page.body);
        count++;
      }
      expect(count, query).toBe(2);
      expect(seen, query).toHaveLength(30);
      expect(new Set(seen.map((row) => row.name)).size, query).toBe(30);
      return seen;
    };
    const received = (await pages('sort=received')).map((row) => row.name);
    const byCode = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    /** Sorted by `key` (non-decreasing), those without a value last, newest received first. */
    const expectOrdered = (rows: Row[], key: (row: Row) => string | number | null, direction: 'asc' | 'desc') => {
      const valued = rows.filter((row) => key(row) !== null);
      const keys = valued.map(key) as (string | number)[];
      const sorted = [...keys].sort((a, b) =>
        typeof a === 'number' ? (a as number) - (b as number) : byCode(a as string, b as string),
      );
      expect(keys).toEqual(direction === 'asc' ? sorted : sorted.reverse());
      const without = rows.slice(valued.length);
      expect(without.every((row) => key(row) === null)).toBe(true);
      expect(without.map((row) => row.name)).toEqual(
        received.filter((name) => without.some((row) => row.name === name)),
      );
    };
    const rank = (row: Row) => ['new', 'contacted', 'quoted', 'won', 'lost'].indexOf(row.status);
    const folded = (row: Row) =>
      (row.name === 'acme nv' ? row.name : row.name.split(' ').reverse().join(' '))
        .normalize('NFD')
        .replace(/\p{M}+/gu, '')
        .toLowerCase();
    for (const direction of ['asc', 'desc'] as const) {
      const dir = direction === 'asc' ? '' : '&dir=desc';
      const byName = await pages(`sort=name${dir}`);
      expectOrdered(byName, folded, direction);
      // Folded: "acme nv" and "Bob Baker" (baker bob) in the order a broker reads them.
      const named = byName.map((row) => row.name).filter((name) => /^[a-zA-Z]/.test(name) && !name.startsWith('Lead'));
      const az = ['acme nv', 'Bob Baker', 'Zoë Éclair'];
      expect(named).toEqual(direction === 'asc' ? az : az.reverse());
      const byStatus = await pages(`sort=status${dir}`);
      expectOrdered(byStatus, rank, direction);
      expect(byStatus.at(direction === 'asc' ? -1 : 0)!.status).toBe('lost');
      const byAssignee = await pages(`sort=assignee${dir}`);
      expectOrdered(byAssignee, (row) => row.assignee?.toLowerCase() ?? null, direction);
      expect(byAssignee.filter((row) => row.assignee !== null)).toHaveLength(26);
      expectOrdered(await pages(`sort=kind${dir}`), (row) => row.kind, direction === 'asc' ? 'asc' : 'desc');
      const byOrigin = await pages(`sort=origin${dir}`);
      expectOrdered(byOrigin, (row) => row.origin, direction);
      expect(byOrigin.at(-1)!.name).toBe('acme nv');
    }
    // The kinds by their code: a company before the persons, A to Z.
    expect((await pages('sort=kind')).map((row) => row.kind)[0]).toBe('Company');
    // A header offers its order, the other way round once it is the order.
    const landed = await get(agent, '/app');
    expect(landed.body).toContain('<th scope="col"><a href="/app?sort=name">Name');
    expect(landed.body).toContain('<option value="origin">Origin</option>');
    const byName = await get(agent, '/app?sort=name');
    expect(byName.body).toContain('<th scope="col" aria-sort="ascending"><a href="/app?sort=name&amp;dir=desc">Name');
    // A cursor of another order, or a forged one, is refused.
    for (const cursor of [
      Buffer.from(JSON.stringify(['x', leads[0]!.id])).toString('base64url'),
      Buffer.from(JSON.stringify(['v9', leads[0]!.id])).toString('base64url'),
    ]) {
      const refused = await get(agent, `/app?sort=status&cursor=${cursor}`);
      expect(refused.status).toBe(422);
    }
  });

  it('offers the order by clicking a column header, the other way round once it is the order', async () => {
    const { broker } = await distributionWith(2);
    const { agent, landed } = await signedIn(broker);
    expect(landed.body).toContain('<th scope="col" aria-sort="descending"><a href="/app?dir=asc">Last change');
    expect(landed.body).toContain('<a href="/app?sort=follow_up">Follow up on');
    const received = await get(agent, '/app?sort=received');
    expect(received.body).toContain(
      '<th scope="col" aria-sort="descending"><a href="/app?sort=received&amp;dir=asc">Received',
    );
    // Words a broker uses: no integration counts, no bare "Nobody".
    expect(landed.body).not.toContain('merged');
    expect(landed.body).not.toContain('Nobody');
  });
});

describe('the inbox’s bulk change', () => {
  it('assigns the ticked leads and sets their status, each on its own, and says what it did', async () => {
    const { broker, crm, leads } = await distributionWith(4);
    const other = await distributionWith(1);
    const { agent, landed } = await signedIn(broker);
    const csrf = inputValue(landed.body, 'csrf')!;
    const ticked = [leads[0]!, leads[1]!, other.leads[0]!];
    const form = {
      csrf,
      back: 'origin=web',
      assignee: broker.user.id,
      status: 'contacted',
      ...Object.fromEntries(ticked.map((lead) => [`lead:${lead.id}`, '1'])),
    };
    const before = await countRows(server);
    const forged = await agent.request(`${server.url}/app/bulk`, { form: { ...form, csrf: 'forged' } });
    expect(forged.status).toBe(403);
    expect(await countRows(server)).toEqual(before);
    const done = await agent.request(`${server.url}/app/bulk`, { form });
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe('/app?origin=web&bulk=2.1');
    const page = await get(agent, done.headers.get('location')!);
    expect(page.body).toContain(
      '2 of 3 selected leads changed. 1 could not be changed (erased, or no longer in your distribution).',
    );
    for (const lead of [leads[0]!, leads[1]!]) {
      const read = await callApi(server, crm, 'GET', `/distributions/${crm.distributionId}/leads/${lead.id}`);
      expect(read.body).toMatchObject({ status: 'contacted', assignee: broker.user.id });
    }
    const untouched = await callApi(server, crm, 'GET', `/distributions/${crm.distributionId}/leads/${leads[2]!.id}`);
    expect(untouched.body).toMatchObject({ status: 'new', assignee: null });
    const foreign = await callApi(
      server,
      other.crm,
      'GET',
      `/distributions/${other.crm.distributionId}/leads/${other.leads[0]!.id}`,
    );
    expect(foreign.body).toMatchObject({ status: 'new', assignee: null });
    // Nothing ticked, or nothing to change: said so, nothing written.
    const nothing = await agent.request(`${server.url}/app/bulk`, { form: { csrf, status: 'won' } });
    expect(nothing.headers.get('location')).toBe('/app?bulk=nothing');
    // A user of another distribution is no choice of the form.
    const stranger = await agent.request(`${server.url}/app/bulk`, {
      form: { ...form, assignee: other.broker.user.id },
    });
    expect(stranger.status).toBe(422);
  });
});
