// The broker's work in the broker app over real HTTP, on both databases (docs/design.md
// section 13): the lead page's work and note forms (CSRF, the ETag they were shown with,
// refusals as messages on the page), the timeline of pushes, PATCHes and notes with who did
// them, the inbox's filters, counts, search and CSV export, and money that agrees between pages.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiToken } from '../src/auth/api-token.service.ts';
import { callApi } from './support/api-client.ts';
import { type Broker, createBroker, openSignedIn, pathOf, UserAgent } from './support/broker-app.ts';
import { companyLead, insuredCarLead } from './support/demo-portfolio.ts';
import { pushLead } from './support/lead-client.ts';
import { inputValue } from './support/sso.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

async function signedIn(who: Broker, path = '/app') {
  const agent = new UserAgent(server);
  const landed = await openSignedIn(agent, `${server.url}${path}`, who.user.username);
  return { agent, landed };
}
const get = (agent: UserAgent, path: string) => agent.request(`${server.url}${path}`);
const post = (agent: UserAgent, path: string, form: Record<string, string>) =>
  agent.request(`${server.url}${path}`, { form });
/** A token of the broker's distribution that may read and PATCH. */
async function apiTenant(broker: Broker, name = 'acme-crm') {
  const token = await createApiToken(server.database.handle.db, {
    distributionId: broker.tenant.distributionId,
    scopes: ['leads:write', 'leads:read', 'parties:update', 'parties:read'],
    name,
  });
  return { distributionId: broker.tenant.distributionId, token: token.token };
}
const names = (body: string) =>
  [...body.matchAll(/<th scope="row"><a href="\/app\/parties\/[^"]+">([^<]+)<\/a>/g)].map((m) => m[1]);
/** The page's text as read: tags gone, white space collapsed. */
const text = (body: string) =>
  body
    .replace(/<style>[^<]*<\/style>/, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .replace(/ ([:,.])/g, '$1');

describe('the lead page’s work and note forms', () => {
  it('sets status, reason and assignee with the page’s CSRF token and ETag; the API and the timeline show who did it', async () => {
    const broker = await createBroker(server);
    const pushed = await pushLead(server, broker.tenant, 'customers', insuredCarLead());
    const { agent, landed } = await signedIn(broker, pathOf(pushed.body.href));
    const csrf = inputValue(landed.body, 'csrf')!;
    const etag = inputValue(landed.body, 'etag')!;
    const saved = await post(agent, `/app/parties/${pushed.body.party_id}/work`, {
      csrf,
      etag,
      status: 'lost',
      lost_reason: 'Chose another insurer',
      assignee: broker.user.id,
    });
    expect(saved.status).toBe(303);
    expect(saved.headers.get('location')).toBe(`/app/parties/${pushed.body.party_id}?saved=work#work`);
    const page = await get(agent, `/app/parties/${pushed.body.party_id}?saved=work`);
    expect(page.body).toContain('Saved.');
    expect(text(page.body)).toContain(`Lost since`);
    expect(text(page.body)).toContain(`assigned to ${broker.user.username}`);
    const read = await callApi(
      server,
      broker.tenant,
      'GET',
      `/distributions/${broker.tenant.distributionId}/leads/${pushed.body.id}`,
    );
    expect(read.body).toMatchObject({ status: 'lost', lost_reason: 'Chose another insurer', assignee: broker.user.id });

    // The form shown before the change now carries an old ETag: refused, and said so.
    const stale = await post(agent, `/app/parties/${pushed.body.party_id}/work`, {
      csrf,
      etag,
      status: 'won',
      assignee: '',
    });
    expect(stale.status).toBe(409);
    expect(stale.body).toContain('role="alert"');
    expect(text(stale.body)).toContain('Someone changed this lead meanwhile.');
    // A forged token changes nothing.
    const forged = await post(agent, `/app/parties/${pushed.body.party_id}/work`, {
      csrf: 'forged',
      status: 'won',
      assignee: '',
    });
    expect(forged.status).toBe(403);
    const again = await callApi(
      server,
      broker.tenant,
      'GET',
      `/distributions/${broker.tenant.distributionId}/leads/${pushed.body.id}`,
    );
    expect(again.body.status).toBe('lost');

    const timeline = text((await get(agent, pathOf(pushed.body.href_to_proflow))).body);
    expect(timeline).toContain('Pushed: lead created');
    expect(timeline).toContain(`Status changed · ${broker.user.username} (signed in)`);
    expect(timeline).toContain('Status: New → Lost');
    expect(timeline).toContain(`Assigned to: — → ${broker.user.username}`);
  });

  it('shows each refused value as a message on the page and keeps what was typed', async () => {
    const broker = await createBroker(server);
    const stranger = await createBroker(server);
    const pushed = await pushLead(server, broker.tenant, 'customers', insuredCarLead());
    const { agent, landed } = await signedIn(broker, pathOf(pushed.body.href));
    const csrf = inputValue(landed.body, 'csrf')!;
    const refused = await post(agent, `/app/parties/${pushed.body.party_id}/work`, {
      csrf,
      status: 'closed',
      assignee: stranger.user.id,
    });
    expect(refused.status).toBe(422);
    expect(text(refused.body)).toContain('Nothing was saved: Choose one of the statuses in the list.');
    expect(text(refused.body)).toContain('Choose a user of your distribution from the list.');
    const note = await post(agent, `/app/parties/${pushed.body.party_id}/notes`, { csrf, body: '   ' });
    expect(note.status).toBe(422);
    expect(text(note.body)).toContain('Write something in the note.');
    const long = await post(agent, `/app/parties/${pushed.body.party_id}/notes`, { csrf, body: 'x'.repeat(10_001) });
    expect(long.status).toBe(422);
    expect(long.body).toContain('x'.repeat(10_001));
  });

  it('sets a follow-up day on the lead page: the page, the API and the timeline show it; a day that does not exist is said so', async () => {
    const broker = await createBroker(server);
    const pushed = await pushLead(server, broker.tenant, 'customers', insuredCarLead());
    const { agent, landed } = await signedIn(broker, pathOf(pushed.body.href));
    const csrf = inputValue(landed.body, 'csrf')!;
    const form = { csrf, status: 'contacted', assignee: '' };
    const refused = await post(agent, `/app/parties/${pushed.body.party_id}/work`, {
      ...form,
      etag: inputValue(landed.body, 'etag')!,
      follow_up_on: '2026-02-30',
    });
    expect(refused.status).toBe(422);
    expect(text(refused.body)).toContain('Give the follow-up day as a date of the calendar, or leave it empty.');
    expect(inputValue(refused.body, 'follow_up_on')).toBe('2026-02-30');
    const saved = await post(agent, `/app/parties/${pushed.body.party_id}/work`, {
      ...form,
      etag: inputValue(landed.body, 'etag')!,
      follow_up_on: '2026-12-01',
    });
    expect(saved.status).toBe(303);
    const page = await get(agent, `/app/parties/${pushed.body.party_id}?saved=work`);
    expect(text(page.body)).toContain('follow up on 01 Dec 2026');
    expect(inputValue(page.body, 'follow_up_on')).toBe('2026-12-01');
    const leadUrl = `/distributions/${broker.tenant.distributionId}/leads/${pushed.body.id}`;
    expect((await callApi(server, broker.tenant, 'GET', leadUrl)).body.follow_up_on).toBe('2026-12-01');
    expect(text((await get(agent, pathOf(pushed.body.href_to_proflow))).body)).toContain(
      'Follow up on: — → 01 Dec 2026',
    );
    // Emptied, the day is gone.
    await post(agent, `/app/parties/${pushed.body.party_id}/work`, {
      ...form,
      etag: inputValue(page.body, 'etag')!,
      follow_up_on: '',
    });
    expect((await callApi(server, broker.tenant, 'GET', leadUrl)).body.follow_up_on).toBeNull();
  });

  it('adds notes, shown on the page and in the timeline with their author, and never to another distribution’s lead', async () => {
    const broker = await createBroker(server);
    const pushed = await pushLead(server, broker.tenant, 'customers', insuredCarLead());
    const { agent, landed } = await signedIn(broker, pathOf(pushed.body.href));
    const csrf = inputValue(landed.body, 'csrf')!;
    const added = await post(agent, `/app/parties/${pushed.body.party_id}/notes`, {
      csrf,
      body: 'Called: wants a quote <b>for two cars</b>',
    });
    expect(added.status).toBe(303);
    const page = await get(agent, `/app/parties/${pushed.body.party_id}?saved=note`);
    expect(page.body).toContain('Called: wants a quote &lt;b&gt;for two cars&lt;/b&gt;');
    expect(text((await get(agent, pathOf(pushed.body.href_to_proflow))).body)).toContain(
      `Note by ${broker.user.username} Called: wants a quote`,
    );
    const other = await createBroker(server);
    const { agent: stranger, landed: strangerPage } = await signedIn(other);
    const foreign = await post(stranger, `/app/parties/${pushed.body.party_id}/notes`, {
      csrf: inputValue(strangerPage.body, 'csrf')!,
      body: 'not mine',
    });
    expect(foreign.status).toBe(404);
  });

  it('lists a party PATCH in the timeline: which field changed, from what to what, and which token did it', async () => {
    const broker = await createBroker(server);
    const crm = await apiTenant(broker, 'acme-sync');
    const pushed = await pushLead(server, crm, 'customers', insuredCarLead());
    const patched = await callApi(
      server,
      crm,
      'PATCH',
      `/distributions/${crm.distributionId}/parties/${pushed.body.party_id}`,
      {
        body: { telephonenr: '+32 3 999 99 99' },
      },
    );
    expect(patched.status).toBe(200);
    const { landed } = await signedIn(broker, pathOf(pushed.body.href_to_proflow));
    expect(text(landed.body)).toContain(
      'Prospect changed (PATCH) · API token “acme-sync” Telephone: +32 3 456 78 90 → +32 3 999 99 99',
    );
  });
});

describe('money agrees between pages', () => {
  it('counts a car’s insured value once, totals a package at its own premium and shows a monthly coverage premium', async () => {
    const broker = await createBroker(server);
    const pushed = await pushLead(server, broker.tenant, 'customers', insuredCarLead());
    const { agent, landed } = await signedIn(broker, pathOf(pushed.body.href));
    // The lead page: the package premium as stored.
    expect(text(landed.body)).toContain('Premium €899.40 Payment interval yearly');
    const scan = await get(agent, pathOf(pushed.body.href_to_risk_scan));
    expect(scan.body).toMatch(/data-insured>€22,000\.00</);
    expect(scan.body).not.toContain('€44,000.00');
    const advisory = await get(agent, pathOf(pushed.body.href_to_advisory_flow));
    expect(advisory.body).toMatch(/data-package-total>€899\.40</);
    expect(text(advisory.body)).toContain(
      'The package costs €899.40 a year, €9.15 less than its policies add up to (€908.55): the package premium is what is paid.',
    );
    expect(text(advisory.body)).toContain('Juridische bijstand: €120.25 monthly = €1,443.00 a year');
    // 899.40 + 1,443.00
    expect(advisory.body).toMatch(/data-total>€2,342\.40</);
  });

  it('shows where a lead came from as its newest push sent it, never mixing two pushes', async () => {
    const broker = await createBroker(server);
    const first = insuredCarLead();
    const pushed = await pushLead(server, broker.tenant, 'customers', first);
    const merged = await pushLead(server, broker.tenant, 'customers', {
      origin: 'broker-portal',
      prospect: { first_name: 'Wout', last_name: 'Maes', external_refs: first.prospect.external_refs },
    });
    expect(merged.status).toBe(200);
    // The API keeps the first push's backref (rule 6); the page shows the newest push's sender whole.
    expect(merged.body.backref).toBe('https://crm.example.com/contacts/5120');
    const { landed } = await signedIn(broker, pathOf(pushed.body.href));
    const lead = text(landed.body);
    expect(lead).toContain('Origin broker-portal Source — Sent from —');
    expect(landed.body).not.toContain('https://crm.example.com/contacts/5120');
  });
});

describe('the inbox', () => {
  it('filters by status, assignee, kind, origin and date received, sorts, counts per status and pages', async () => {
    const broker = await createBroker(server);
    const crm = await apiTenant(broker);
    const leads = [];
    for (let i = 0; i < 6; i++)
      leads.push(
        (
          await pushLead(server, crm, 'customers', {
            origin: i % 2 === 0 ? 'web' : 'portal',
            prospect: { first_name: 'Lead', last_name: `N${i}` },
          })
        ).body,
      );
    await pushLead(server, crm, 'companies', companyLead());
    const patch = (lead: { id: string }, body: object) =>
      callApi(server, crm, 'PATCH', `/distributions/${crm.distributionId}/leads/${lead.id}`, { body });
    await patch(leads[0]!, { status: 'contacted', assignee: broker.user.id });
    await patch(leads[1]!, { status: 'contacted' });
    await patch(leads[2]!, { status: 'won', assignee: broker.user.id });
    const { agent, landed } = await signedIn(broker);
    const counts = text(landed.body);
    expect(counts).toContain('All 7 New 4 Contacted 2 Quoted 0 Won 1 Lost 0');
    const list = async (query: string) => names((await get(agent, `/app?${query}`)).body);
    expect(await list('status=contacted')).toEqual(['Lead N1', 'Lead N0']);
    expect(await list('assignee=mine')).toEqual(['Lead N2', 'Lead N0']);
    expect(await list('status=contacted&assignee=mine')).toEqual(['Lead N0']);
    expect(await list('assignee=none&kind=CUSTOMER')).toEqual(['Lead N1', 'Lead N5', 'Lead N4', 'Lead N3']);
    expect(await list('kind=COMPANY')).toEqual(['Brouwerij De Ranke']);
    expect(await list('origin=portal')).toEqual(['Lead N1', 'Lead N5', 'Lead N3']);
    expect(await list('sort=received&origin=portal')).toEqual(['Lead N5', 'Lead N3', 'Lead N1']);
    const today = new Date().toISOString().slice(0, 10);
    expect(await list(`from=2000-01-01&to=2000-12-31`)).toEqual([]);
    expect((await list(`from=${today}&kind=CUSTOMER&sort=received`)).length).toBe(6);
    const refused = await get(agent, '/app?status=closed');
    expect(refused.status).toBe(422);
    expect((await get(agent, '/app?from=2026-02-30')).status).toBe(422);
  });

  it('finds a lead by city, postcode, telephone in any form, enterprise number, VIN and refs, and only its own', async () => {
    const broker = await createBroker(server);
    await pushLead(server, broker.tenant, 'customers', insuredCarLead());
    await pushLead(server, broker.tenant, 'companies', companyLead());
    await pushLead(server, broker.tenant, 'customers', { prospect: { first_name: 'Jan', last_name: 'Peeters' } });
    const other = await createBroker(server);
    await pushLead(server, other.tenant, 'customers', insuredCarLead());
    const { agent } = await signedIn(broker);
    const search = async (q: string) => names((await get(agent, `/app?q=${encodeURIComponent(q)}`)).body);
    for (const q of [
      'Antwerpen',
      'antw',
      '2000',
      '+32 3 456 78 90',
      '03 456 78 90',
      '034567890',
      'CRM-5120',
      'wba3a5c50cf256651',
      'maes wout',
    ])
      expect(await search(q), q).toEqual(['Wout Maes']);
    for (const q of ['Dottignies', '7711', '0456.789.133', 'BE0456789133', '456789133', 'K-88'])
      expect(await search(q), q).toEqual(['Brouwerij De Ranke']);
    expect(await search('Liège')).toEqual([]);
    expect(await search('%')).toEqual([]);
  });

  it('exports the filtered list as CSV, every page of it, without formulas', async () => {
    const broker = await createBroker(server);
    for (let i = 0; i < 3; i++)
      await pushLead(server, broker.tenant, 'customers', {
        origin: 'web',
        prospect: { first_name: '=HYPERLINK("x")', last_name: `N${i}`, email: `n${i}@example.be` },
      });
    await pushLead(server, broker.tenant, 'customers', {
      origin: 'portal',
      prospect: { first_name: 'Other', last_name: 'Lead' },
    });
    const { agent } = await signedIn(broker);
    const csv = await get(agent, '/app/export.csv?origin=web');
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toMatch(/^attachment; filename="leads-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\n');
    expect(lines[0]).toBe(
      'lead_id,party_id,Name,Kind,E-mail,Telephone,Postcode,City,Status,Reason lost,Assigned to,Follow up on,Origin,External references,Received,Last change',
    );
    expect(lines).toHaveLength(4);
    expect(lines.slice(1).every((line) => line.includes(`,"'=HYPERLINK(""x"") N`) && line.includes(',New,'))).toBe(
      true,
    );
    expect(csv.body).not.toContain('Other Lead');
  });
});

describe('another distribution', () => {
  it('sees none of it: the forms and the export answer 404 or leave its leads out', async () => {
    const owner = await createBroker(server);
    const pushed = await pushLead(server, owner.tenant, 'customers', insuredCarLead({ ref: randomUUID() }));
    const other = await createBroker(server);
    const { agent, landed } = await signedIn(other);
    const csrf = inputValue(landed.body, 'csrf')!;
    const work = await post(agent, `/app/parties/${pushed.body.party_id}/work`, { csrf, status: 'won', assignee: '' });
    expect(work.status).toBe(404);
    const csv = await get(agent, '/app/export.csv');
    expect(csv.body).not.toContain(pushed.body.id);
  });
});
