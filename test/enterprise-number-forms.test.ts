// One reading of an enterprise number (src/reference/enterprises/enterprise-number.ts): every
// way of writing one that the enterprise lookup answers (docs/design.md section 6) also finds
// the company's lead in the broker app's inbox (section 7), on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi } from './support/api-client.ts';
import { type Broker, createBroker, openSignedIn, UserAgent } from './support/broker-app.ts';
import { cliJson } from './support/cli.ts';
import { pushLead } from './support/lead-client.ts';
import { kboDump, writeFolder } from './support/reference-files.ts';
import { createTenant, startTestServer, type Tenant, type TestServer } from './support/test-server.ts';

let server: TestServer;
let broker: Broker;
let reader: Tenant;
let agent: UserAgent;

beforeAll(async () => {
  server = await startTestServer();
  await cliJson(server.database.env, ['data', 'import', 'enterprises', writeFolder(kboDump())]);
  reader = await createTenant(server.database.handle, ['enterprise:read']);
  broker = await createBroker(server);
  const pushed = await pushLead(server, broker.tenant, 'companies', {
    prospect: { name: 'Veneco', enterprise_nr: 'BE0200.065.765' },
  });
  expect(pushed.status).toBe(201);
  agent = new UserAgent(server);
  await openSignedIn(agent, `${server.url}/app`, broker.user.username);
});
afterAll(async () => server?.close());

/** The names the inbox lists for a search. */
async function inboxNames(q: string): Promise<string[]> {
  const page = await agent.request(`${server.url}/app?q=${encodeURIComponent(q)}`);
  expect(page.status).toBe(200);
  return [...page.body.matchAll(/<th scope="row"><a href="\/app\/parties\/[^"]+">([^<]+)<\/a>/g)].map((m) => m[1]!);
}

describe('an enterprise number, however it is written', () => {
  it('is found by the enterprise lookup and by the inbox search alike', async () => {
    for (const written of [
      '0200.065.765',
      '0200065765',
      '200065765',
      'BE0200065765',
      'be0200.065.765',
      'BE 0200 065 765',
      '0200-065-765',
      '0200/065/765',
    ]) {
      const lookup = await callApi(server, reader, 'GET', `/enterprises/${encodeURIComponent(written)}`);
      expect(lookup.status, written).toBe(200);
      expect(lookup.body.enterprise_number, written).toBe('0200.065.765');
      expect(await inboxNames(written), written).toEqual(['Veneco']);
    }
  });

  it('is refused by the lookup when it is only part of one, which the inbox reads as the beginning of its words', async () => {
    for (const partial of ['0200.065', 'BE 0200 065 76']) {
      const lookup = await callApi(server, reader, 'GET', `/enterprises/${encodeURIComponent(partial)}`);
      expect(lookup.status, partial).toBe(422);
      // The inbox searches the beginnings of words (docs/broker-app.md, "Broker app"), as a number being typed.
      expect(await inboxNames(partial), partial).toEqual(['Veneco']);
    }
    expect(await inboxNames('0200.066')).toEqual([]);
  });
});

describe('a pushed enterprise number', () => {
  const MISTYPED = ['BE0200.065.766', '0200065764', 'BE 0123 456 789', '0123.456'];
  const expected =
    "Error for 'enterprise_nr'. The specified value is invalid: an enterprise number with a valid check digit is expected, such as 0200.065.765.";

  it('is refused as the lookup refuses it, its check digit wrong or its digits too few, and nothing is written', async () => {
    const partner = await createTenant(server.database.handle, ['leads:write', 'leads:read', 'enterprise:read']);
    for (const written of MISTYPED) {
      const lookup = await callApi(server, partner, 'GET', `/enterprises/${encodeURIComponent(written)}`);
      expect(lookup.status, written).toBe(422);
      const push = await pushLead(server, partner, 'companies', {
        prospect: { name: 'Typo NV', enterprise_nr: written },
      });
      expect(push.status, written).toBe(422);
      expect(push.body.detail.errors, written).toEqual([
        { type: 'ValidationError', target: 'prospect.enterprise_nr', message: expected },
      ]);
    }
    const batch = await callApi(server, partner, 'POST', `/distributions/${partner.distributionId}/leads/batch`, {
      body: { leads: [{ type: 'COMPANY', prospect: { name: 'Typo NV', enterprise_nr: MISTYPED[0] } }] },
    });
    expect(batch.body.results[0].error.detail.errors[0].target).toBe('prospect.enterprise_nr');
    const leads = await callApi(server, partner, 'GET', `/distributions/${partner.distributionId}/leads?limit=10`);
    expect(leads.body.items).toEqual([]);
  });

  it('is taken in the forms the lookup reads, and a foreign VAT number by its pattern alone', async () => {
    const partner = await createTenant(server.database.handle, ['leads:write', 'leads:read', 'parties:update']);
    for (const written of ['0200.065.765', 'BE0200065765', '200065765', 'BE 0200 065 765', 'NL123456789B01']) {
      const push = await pushLead(server, partner, 'companies', {
        prospect: { name: `Firm ${written}`, enterprise_nr: written },
      });
      expect(push.status, written).toBe(201);
      expect(push.body.prospect.enterprise_nr, written).toBe(written);
    }
  });

  it('is checked when a party update sets it, not when the update leaves it alone', async () => {
    const partner = await createTenant(server.database.handle, ['leads:write', 'leads:read', 'parties:update']);
    const push = await pushLead(server, partner, 'companies', {
      prospect: { name: 'Veneco', enterprise_nr: '0200.065.765' },
    });
    const path = `/distributions/${partner.distributionId}/parties/${push.body.party_id}`;
    const refused = await callApi(server, partner, 'PATCH', path, { body: { enterprise_nr: '0200.065.766' } });
    expect(refused.status).toBe(422);
    expect(refused.body.detail.errors).toEqual([
      { type: 'ValidationError', target: 'enterprise_nr', message: expected },
    ]);
    const renamed = await callApi(server, partner, 'PATCH', path, { body: { name: 'Veneco NV' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Veneco NV', enterprise_nr: '0200.065.765' });
  });
});
