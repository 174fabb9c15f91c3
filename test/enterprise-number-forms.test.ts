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
