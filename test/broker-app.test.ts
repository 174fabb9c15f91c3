// The broker app over real HTTP on both databases (docs/design.md section 7): sign-in through the embedded
// provider and back to the page asked for, every href of a push answer, the inbox with its
// search and paging, another distribution's 404, replay and sign-out.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Broker, createBroker, openSignedIn, pathOf, UserAgent } from './support/broker-app.ts';
import { pushLead } from './support/lead-client.ts';
import { inputValue } from './support/sso.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

let server: TestServer;
let broker: Broker;

beforeAll(async () => {
  server = await startTestServer();
  broker = await createBroker(server);
});
afterAll(async () => server?.close());

/** A lead with a car: risk object ids are the client's and unique across parties, so each push names a new one. */
const fullLead = () => ({
  origin: 'acme-crm',
  backref: 'https://crm.example.com/contacts/4711',
  prospect: {
    first_name: 'Els',
    last_name: 'Claes',
    email: 'els.claes@example.be',
    external_refs: [{ external_ref: 'CRM-4711', external_ref_company: 'acme' }],
    risk_objects: { cars: [{ id: randomUUID(), vin: 'WVWZZZ1JZXW000001', brand: 'Volkswagen', model: 'Golf' }] },
  },
});

describe('broker app sign-in', () => {
  it('sends a signed-out visitor through the login page and back to the page asked for', async () => {
    const pushed = await pushLead(server, broker.tenant, 'customers', fullLead());
    expect(pushed.status).toBe(201);
    const agent = new UserAgent(server);
    const first = await agent.request(pathOf(pushed.body.href).replace(/^/, server.url));
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe(`/app/login?return_to=${encodeURIComponent(pathOf(pushed.body.href))}`);
    const landed = await openSignedIn(agent, `${server.url}${pathOf(pushed.body.href)}`, broker.user.username);
    expect(landed.status).toBe(200);
    expect(landed.url).toBe(pushed.body.href);
    expect(landed.body).toContain('<h1>Els Claes</h1>');
  });
});

/** A signed-in agent of `who`, and the page it landed on. */
async function signedIn(who: Broker, path = '/app') {
  const agent = new UserAgent(server);
  const landed = await openSignedIn(agent, `${server.url}${path}`, who.user.username);
  return { agent, landed };
}

const get = (agent: UserAgent, path: string) => agent.request(`${server.url}${path}`);

describe('broker app pages', () => {
  it('opens every href of a push answer for a user of the distribution, and 404s them for another distribution', async () => {
    const pushed = await pushLead(server, broker.tenant, 'customers', fullLead());
    const { agent } = await signedIn(broker);
    const links = [
      pushed.body.href,
      pushed.body.href_to_proflow,
      pushed.body.href_to_risk_scan,
      pushed.body.href_to_advisory_flow,
    ];
    for (const link of links) {
      const page = await get(agent, pathOf(link));
      expect(page.status, link).toBe(200);
      expect(page.body, link).toContain('Els Claes');
      expect(page.headers.get('content-security-policy')).toMatch(
        /^default-src 'none'; style-src 'sha256-[^']+'; img-src 'self'; form-action 'self'; frame-ancestors 'none'/,
      );
      expect(page.headers.get('cache-control')).toBe('no-store');
    }
    const other = await createBroker(server);
    const { agent: stranger } = await signedIn(other);
    for (const link of links) {
      const page = await get(stranger, pathOf(link));
      expect(page.status, link).toBe(404);
      expect(page.body).not.toContain('Claes');
    }
    expect((await get(stranger, '/app/parties/not-a-uuid')).status).toBe(404);
    expect((await get(stranger, '/app/no/such/page')).status).toBe(404);
  });

  it('keeps the session in a Secure, HttpOnly, SameSite cookie scoped to /app', async () => {
    const agent = new UserAgent(server);
    const loginRedirect = await get(agent, '/app/login');
    expect(loginRedirect.status).toBe(303);
    const authorize = new URL(loginRedirect.headers.get('location')!);
    expect(`${authorize.origin}${authorize.pathname}`).toBe(`${server.config.publicUrl}/sso/auth`);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('redirect_uri')).toBe(`${server.config.publicUrl}/app/callback`);
    expect(loginRedirect.headers.getSetCookie()[0]).toMatch(
      /; Path=\/app\/callback; Max-Age=600; HttpOnly; Secure; SameSite=Lax$/,
    );
    const session = await fetch(`${server.url}/app`, { redirect: 'manual' });
    expect(session.status).toBe(303);
    const { landed } = await signedIn(broker);
    expect(landed.status).toBe(200);
  });

  it('refuses a callback that is not the answer to this browser’s own sign-in', async () => {
    const agent = new UserAgent(server);
    expect((await get(agent, '/app/callback?code=abc&state=forged')).status).toBe(400);
    const started = await get(agent, '/app/login');
    const state = new URL(started.headers.get('location')!).searchParams.get('state');
    const wrongState = await get(agent, '/app/callback?code=abc&state=not-the-state');
    expect(wrongState.status).toBe(400);
    expect(wrongState.body).toContain('The sign-in did not complete.');
    expect((await get(agent, `/app/callback?code=made-up&state=${state}`)).status).toBe(400);
    expect((await get(agent, '/app')).status).toBe(303);
  });

  it('shows the party: prospect, backref link, refs, and each risk object revision with what changed', async () => {
    const lead = fullLead();
    const first = await pushLead(server, broker.tenant, 'customers', lead);
    const car = lead.prospect.risk_objects.cars[0]!;
    await pushLead(server, broker.tenant, 'customers', {
      ...lead,
      prospect: {
        ...lead.prospect,
        id: first.body.party_id,
        risk_objects: { cars: [{ ...car, model: 'Golf Variant', license_plate: '1-ABC-123' }] },
      },
    });
    const { agent } = await signedIn(broker);
    const page = await get(agent, pathOf(first.body.href));
    expect(page.body).toContain('<a href="https://crm.example.com/contacts/4711" rel="noopener noreferrer">');
    expect(page.body).toContain('acme: CRM-4711');
    expect(page.body).toContain('Revision 2');
    expect(page.body).toMatch(
      /<th scope="row">Model<\/th>\s*<td[^>]*><del>Golf<\/del><\/td>\s*<td[^>]*><ins>Golf Variant<\/ins><\/td>/,
    );
    expect(page.body).toMatch(
      /<th scope="row">Licence plate<\/th>\s*<td[^>]*>—<\/td>\s*<td[^>]*><ins>1-ABC-123<\/ins><\/td>/,
    );
  });

  it('speaks the user’s own language', async () => {
    const dutch = await createBroker(server, { language: 'nl' });
    const pushed = await pushLead(server, dutch.tenant, 'customers', fullLead());
    const { agent, landed } = await signedIn(dutch);
    expect(landed.body).toContain('<html lang="nl">');
    expect(landed.body).toContain('Leads-inbox');
    const scan = await get(agent, pathOf(pushed.body.href_to_risk_scan));
    expect(scan.body).toContain('Door geen enkele polis gedekt');
  });

  it('refuses hostile query input with a 4xx page, never a 5xx', async () => {
    const { agent } = await signedIn(broker);
    for (const path of [
      '/app?q=%00',
      '/app?cursor=%7B',
      '/app?q=a&q=b',
      `/app?q=${'x'.repeat(300)}`,
      '/app/parties/%00',
      '/app/proflow/parties/%ED%A0%80',
    ]) {
      const page = await get(agent, path);
      expect(page.status, path).toBeGreaterThanOrEqual(400);
      expect(page.status, path).toBeLessThan(500);
      // (A path that is not even UTF-8 is refused before any route, in the API's JSON body.)
      if (!path.includes('%ED')) expect(page.headers.get('content-type'), path).toMatch(/^text\/html/);
    }
    // LIKE's own characters are searched for literally.
    expect((await get(agent, '/app?q=%25')).body).toContain('No lead matches “%”.');
  });
});

describe('inbox', () => {
  it('finds a lead by any word of its name, its e-mail, external ref, VIN or enterprise number', async () => {
    const searcher = await createBroker(server);
    await pushLead(server, searcher.tenant, 'customers', fullLead());
    await pushLead(server, searcher.tenant, 'companies', {
      origin: 'kbo',
      prospect: {
        name: 'Brouwerij De Ranke',
        enterprise_nr: 'BE0456.789.133',
        email: 'info@deranke.be',
        insurance_policies: [{ policy_nr: 'P-1', external_refs: [{ ref: 'POL-77', company: 'ag' }] }],
      },
    });
    await pushLead(server, searcher.tenant, 'customers', { prospect: { first_name: 'Jan', last_name: 'Peeters' } });
    const { agent } = await signedIn(searcher);
    const names = async (q: string) => {
      const page = await get(agent, `/app?q=${encodeURIComponent(q)}`);
      expect(page.status).toBe(200);
      return [...page.body.matchAll(/<th scope="row"><a href="\/app\/parties\/[^"]+">([^<]+)<\/a>/g)].map((m) => m[1]);
    };
    expect(await names('')).toEqual(['Jan Peeters', 'Brouwerij De Ranke', 'Els Claes']);
    expect(await names('claes els')).toEqual(['Els Claes']);
    expect(await names('RANKE')).toEqual(['Brouwerij De Ranke']);
    expect(await names('els.claes@example')).toEqual(['Els Claes']);
    expect(await names('CRM-4711')).toEqual(['Els Claes']);
    expect(await names('POL-77')).toEqual(['Brouwerij De Ranke']);
    expect(await names('wvwzzz1jzxw000001')).toEqual(['Els Claes']);
    expect(await names('0456789133')).toEqual(['Brouwerij De Ranke']);
    expect(await names('BE 0456.789.133')).toEqual(['Brouwerij De Ranke']);
    expect(await names('nobody')).toEqual([]);
  });

  it('pages by the last lead seen, so new leads arriving meanwhile neither repeat nor hide one', async () => {
    const busy = await createBroker(server);
    for (let i = 0; i < 30; i++)
      await pushLead(server, busy.tenant, 'customers', {
        prospect: { first_name: 'Lead', last_name: `N${String(i).padStart(2, '0')}` },
      });
    const { agent, landed } = await signedIn(busy);
    const names = (body: string) =>
      [...body.matchAll(/<th scope="row"><a href="\/app\/parties\/[^"]+">([^<]+)<\/a>/g)].map((m) => m[1]);
    const first = names(landed.body);
    expect(first).toHaveLength(25);
    expect(first[0]).toBe('Lead N29');
    for (let i = 0; i < 3; i++)
      await pushLead(server, busy.tenant, 'customers', { prospect: { first_name: 'New', last_name: `N${i}` } });
    const next = /<a href="([^"]+)" rel="next">/.exec(landed.body)![1]!.replaceAll('&amp;', '&');
    const second = names((await get(agent, next)).body);
    expect(second).toEqual(['Lead N04', 'Lead N03', 'Lead N02', 'Lead N01', 'Lead N00']);
  });
});

describe('sign-out', () => {
  it('ends the session: the cookie no longer signs anyone in', async () => {
    const { agent, landed } = await signedIn(broker);
    const csrf = inputValue(landed.body, 'csrf')!;
    const cookie = (await agent.request(`${server.url}/app`)).status;
    expect(cookie).toBe(200);
    expect((await agent.request(`${server.url}/app/logout`, { form: { csrf: 'forged' } })).status).toBe(403);
    const out = await agent.request(`${server.url}/app/logout`, { form: { csrf } });
    expect(out.status).toBe(303);
    expect(out.headers.get('location')).toBe('/app/signed-out');
    expect(out.headers.getSetCookie()[0]).toMatch(/^lead_intake_app=; Path=\/app; Max-Age=0/);
    const after = await agent.request(`${server.url}/app`);
    expect(after.status).toBe(303);
    // Signing in again asks for the password, even though the provider remembers the browser.
    const again = await agent.follow(`${server.url}/app`);
    expect(again.body).toContain('name="password"');
  });
});
