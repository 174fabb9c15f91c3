// Values that look like markup reach every page as text (docs/design.md section 10: one
// HTML layer, which escapes by construction): each free-text field of a pushed lead on the
// broker app pages it reaches, a client's name and a typed login on the sign-in pages, and
// a link back to the sender only for an http(s) URL, whatever was stored. The HTML is
// checked as the server sends it, on both databases.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Broker, createBroker, openSignedIn, pathOf, UserAgent } from './support/broker-app.ts';
import { pushLead } from './support/lead-client.ts';
import { createClient } from '../src/sso/index.ts';
import {
  authorizationUrl,
  createSsoFixture,
  formAction,
  inputValue,
  PASSWORD,
  type PageReply,
  pkcePair,
  REDIRECT_URI,
} from './support/sso.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

let server: TestServer;
let broker: Broker;

beforeAll(async () => {
  server = await startTestServer();
  broker = await createBroker(server);
});
afterAll(async () => server?.close());

/** Markup that would run, break out of an attribute or eat an entity if it were not escaped. */
const hostile = (field: string) => `"'><script>alert('${field}')</script><img src=x onerror=alert(1)>&amp;`;
/** The same for fields of at most 20 characters. */
const shortHostile = (field: string) => `'"><svg/${field}>&amp;`;

/** What a value looks like in the page's source when it is shown as text. */
const escaped = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** No element, attribute or script of the values' making on the page. */
function expectNoInjectedMarkup(page: PageReply) {
  expect(page.status, page.url).toBe(200);
  expect(page.body, page.url).not.toMatch(/<script|<img|<svg/i);
  expect(page.body, page.url).not.toMatch(/"'>|'">/);
}

const address = (field: string) => ({
  street: hostile(`${field}.street`),
  housenr: shortHostile('hnr'),
  boxnr: shortHostile('box'),
  zipcode: '9000',
  city: hostile(`${field}.city`),
});

/** A customer lead with a hostile value in every free-text field the push has. */
function hostileLead() {
  const car = randomUUID();
  return {
    origin: hostile('origin'),
    source: hostile('source'),
    backref: "https://crm.example.com/contacts/4711?name='claes'&x=1",
    prospect: {
      first_name: hostile('first_name'),
      last_name: hostile('last_name'),
      address: address('prospect'),
      external_refs: [{ external_ref: hostile('external_ref'), external_ref_company: hostile('ref_company') }],
      risk_objects: {
        cars: [
          {
            id: car,
            brand: hostile('brand'),
            model: hostile('model'),
            version: hostile('version'),
            license_plate: shortHostile('plate'),
            value: '22000',
          },
        ],
        residences: [{ id: randomUUID(), address: address('residence'), value: '300000' }],
      },
      policy_packages: [
        {
          name: hostile('package.name'),
          package_nr: hostile('package_nr'),
          insurance_company: hostile('package.insurer'),
          premium: '100',
        },
      ],
      insurance_policies: [
        {
          name: hostile('policy.name'),
          policy_nr: hostile('policy_nr'),
          insurance_company: hostile('policy.insurer'),
          premium: '50.5',
          payment_interval: 'MONTHLY',
          external_refs: [{ ref: hostile('policy.ref'), company: hostile('policy.ref_company') }],
          coverages: [
            {
              name: hostile('coverage.name'),
              risk_object_id: car,
              insured_value: 22000,
              premium: '10',
              external_label: { label: hostile('coverage.label'), type: 'AFD' },
            },
          ],
        },
      ],
    },
  };
}

describe('a lead whose free text looks like markup', () => {
  it('shows every value as text on each broker app page it reaches', async () => {
    const lead = hostileLead();
    const pushed = await pushLead(server, broker.tenant, 'customers', lead);
    expect(pushed.status, JSON.stringify(pushed.body)).toBe(201);
    const agent = new UserAgent(server);
    const party = await openSignedIn(agent, `${server.url}${pathOf(pushed.body.href)}`, broker.user.username);
    const page = (url: string) => agent.request(`${server.url}${url.startsWith('/') ? url : pathOf(url)}`);
    const timeline = await page(pushed.body.href_to_proflow);
    const rawPushPath = /<a href="([^"]+\/pushes\/[^"]+)">/.exec(timeline.body)?.[1];
    expect(rawPushPath).toBeDefined();
    const pages = {
      party,
      timeline,
      rawPush: await page(rawPushPath!),
      riskScan: await page(pushed.body.href_to_risk_scan),
      advisory: await page(pushed.body.href_to_advisory_flow),
      erase: await page(`${pushed.body.href}/erase`),
      inbox: await page('/app'),
    };
    for (const shown of Object.values(pages)) expectNoInjectedMarkup(shown);

    // The party page shows the whole lead.
    const fields = [
      'origin',
      'source',
      'first_name',
      'last_name',
      'prospect.street',
      'prospect.city',
      'residence.street',
      'residence.city',
      'external_ref',
      'ref_company',
      'brand',
      'model',
      'version',
      'package.name',
      'package_nr',
      'package.insurer',
      'policy.name',
      'policy_nr',
      'policy.insurer',
      'policy.ref',
      'policy.ref_company',
      'coverage.name',
    ];
    for (const field of fields) expect(party.body, field).toContain(escaped(hostile(field)));
    for (const field of ['hnr', 'box', 'plate']) expect(party.body, field).toContain(escaped(shortHostile(field)));
    // An http(s) link back to the sender, its query's quotes and ampersand escaped in the attribute.
    expect(party.body).toContain(`<a href="${escaped(lead.backref)}" rel="noopener noreferrer">`);

    // The others show their part of it; the raw push shows the body as sent (the coverage's
    // external label appears nowhere else).
    const name = `${lead.prospect.first_name} ${lead.prospect.last_name}`;
    expect(pages.timeline.body).toContain(escaped(hostile('origin')));
    expect(pages.rawPush.body).toContain(escaped(JSON.stringify(lead)));
    for (const field of ['brand', 'model', 'coverage.name', 'policy.name'])
      expect(pages.riskScan.body, field).toContain(escaped(hostile(field)));
    for (const field of ['package.name', 'policy.name', 'policy.insurer'])
      expect(pages.advisory.body, field).toContain(escaped(hostile(field)));
    expect(pages.erase.body).toContain(escaped(name));
    for (const shown of [name, hostile('origin'), hostile('external_ref')])
      expect(pages.inbox.body, shown).toContain(escaped(shown));
  });

  it('links back to the sender only when the stored backref is an http(s) URL, else shows it as text', async () => {
    const pushed = await pushLead(server, broker.tenant, 'customers', {
      backref: 'https://crm.example.com/contacts/1',
      prospect: { first_name: 'Jef', last_name: 'Wouters' },
    });
    expect(pushed.status).toBe(201);
    const agent = new UserAgent(server);
    const before = await openSignedIn(agent, `${server.url}${pathOf(pushed.body.href)}`, broker.user.username);
    expect(before.body).toContain('<a href="https://crm.example.com/contacts/1" rel="noopener noreferrer">');
    // A push log row from before the push-time URL check, or written by another hand.
    const db = server.database.handle.db;
    for (const backref of ['javascript:alert(document.cookie)', ' JavaScript:alert(1)', '//evil.example/x']) {
      await db
        .updateTable('lead_pushes')
        .set({ payload: JSON.stringify({ backref, prospect: { first_name: 'Jef', last_name: 'Wouters' } }) })
        .where('lead_id', '=', pushed.body.id)
        .execute();
      const page = await agent.request(`${server.url}${pathOf(pushed.body.href)}`);
      expect(page.status).toBe(200);
      expect(page.body, backref).not.toContain('rel="noopener noreferrer"');
      expect(page.body, backref).not.toMatch(/href="\s*(?:javascript:|\/\/)/i);
      expect(page.body, backref).toContain(`<span class="muted">${escaped(backref)}</span>`);
    }
  });
});

describe('sign-in pages showing what a client registered or a user typed', () => {
  it('show a client name and a typed login that look like markup as text', async () => {
    const { user } = await createSsoFixture(server);
    const clientName = hostile('client');
    const client = await createClient(server.database.handle.db, { name: clientName, redirectUris: [REDIRECT_URI] });
    const agent = new UserAgent(server);
    const login = await agent.follow(
      authorizationUrl(server, { clientId: client.client_id, scope: 'openid api', challenge: pkcePair().challenge }),
    );
    expectNoInjectedMarkup(login);
    expect(login.body).toContain(escaped(clientName));

    const typed = hostile('login');
    const refused = await agent.follow(formAction(login, '/login'), {
      form: { csrf: inputValue(login.body, 'csrf')!, login: typed, password: 'not the password' },
    });
    expect(refused.status).toBe(401);
    expect(refused.body).not.toMatch(/<script|<img|<svg/i);
    expect(refused.body).toContain(`value="${escaped(typed)}"`);
    expect(refused.body).toContain(escaped(clientName));

    const consent = await agent.follow(formAction(refused, '/login'), {
      form: { csrf: inputValue(refused.body, 'csrf')!, login: user.username, password: PASSWORD },
    });
    expectNoInjectedMarkup(consent);
    expect(consent.body).toContain('name="decision"');
    expect(consent.body).toContain(escaped(clientName));
  });
});
