// A person's data in the broker app over real HTTP, on both databases (docs/design.md
// section 15): "Download data" gives the export as an attachment; "Erase" asks first, erases
// only from its form with the session's CSRF token, and the lead's pages then say it was
// erased; both are in the audit log under the broker.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi } from './support/api-client.ts';
import { type Broker, createBroker, openSignedIn, UserAgent } from './support/broker-app.ts';
import { cliJson } from './support/cli.ts';
import { pushLead } from './support/lead-client.ts';
import { tablesContaining, uniqueMarker } from './support/personal-data.ts';
import { inputValue } from './support/sso.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

async function signedIn(who: Broker, path: string) {
  const agent = new UserAgent(server);
  const landed = await openSignedIn(agent, `${server.url}${path}`, who.user.username);
  return { agent, landed };
}

async function pushPerson(broker: Broker) {
  const marker = uniqueMarker();
  const pushed = await pushLead(server, broker.tenant, 'customers', {
    prospect: { first_name: marker, last_name: 'Person', external_refs: [{ external_ref: marker }] },
  });
  expect(pushed.status).toBe(201);
  return { marker, partyId: pushed.body.party_id as string, leadId: pushed.body.id as string };
}

describe('the lead page’s personal data', () => {
  it('downloads everything kept about the person as a JSON attachment', async () => {
    const broker = await createBroker(server);
    const person = await pushPerson(broker);
    const { agent, landed } = await signedIn(broker, `/app/parties/${person.partyId}`);
    expect(landed.body).toContain(`href="/app/parties/${person.partyId}/export.json"`);
    const download = await agent.request(`${server.url}/app/parties/${person.partyId}/export.json`);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toBe(`attachment; filename="party-${person.partyId}.json"`);
    const document = JSON.parse(download.body);
    expect(document.party_id).toBe(person.partyId);
    expect(document.records.push_log).toHaveLength(1);
    expect(document.records.parties[0].data.first_name).toBe(person.marker);
  });

  it('erases only after the confirmation page, with its CSRF token; the pages then say the person was erased', async () => {
    const broker = await createBroker(server);
    const person = await pushPerson(broker);
    const { agent, landed } = await signedIn(broker, `/app/parties/${person.partyId}`);
    expect(landed.body).toContain(`href="/app/parties/${person.partyId}/erase"`);
    const confirm = await agent.request(`${server.url}/app/parties/${person.partyId}/erase`);
    expect(confirm.status).toBe(200);
    expect(confirm.body).toContain(person.marker);
    expect(confirm.body).toContain(`action="/app/parties/${person.partyId}/erase"`);
    const csrf = inputValue(confirm.body, 'csrf')!;

    // Without the token (a forged cross-site form) nothing happens.
    const forged = await agent.request(`${server.url}/app/parties/${person.partyId}/erase`, { form: { csrf: 'x' } });
    expect(forged.status).toBe(403);
    expect((await agent.request(`${server.url}/app/parties/${person.partyId}`)).status).toBe(200);

    const erased = await agent.request(`${server.url}/app/parties/${person.partyId}/erase`, { form: { csrf } });
    expect(erased.status).toBe(200);
    expect(erased.body).toMatch(/The person was erased: \d+ stored rows deleted\./);
    expect(await tablesContaining(server.database.handle, person.marker)).toEqual([]);
    for (const path of [`/app/parties/${person.partyId}`, `/app/proflow/parties/${person.partyId}`]) {
      const page = await agent.request(`${server.url}${path}`);
      expect(page.status, path).toBe(410);
      expect(page.body).toContain('was erased on request');
    }
    const api = await callApi(
      server,
      broker.tenant,
      'GET',
      `/distributions/${broker.tenant.distributionId}/leads/${person.leadId}`,
    );
    expect(api.status).toBe(410);
    const audit = await cliJson<any[]>(server.database.env, [
      'audit',
      'list',
      '--distribution',
      broker.tenant.distributionId,
    ]);
    // The audit list names the broker by username beside the id (docs/personal-data.md).
    expect(audit.find((entry) => entry.party_id === person.partyId)).toMatchObject({
      action: 'erase',
      actor: `user:${broker.user.id}`,
      username: broker.user.username,
    });
  });

  it("cannot reach another distribution's person", async () => {
    const broker = await createBroker(server);
    const stranger = await createBroker(server);
    const person = await pushPerson(stranger);
    const { agent, landed } = await signedIn(broker, '/app');
    const csrf = inputValue(landed.body, 'csrf')!;
    expect((await agent.request(`${server.url}/app/parties/${person.partyId}/export.json`)).status).toBe(404);
    expect((await agent.request(`${server.url}/app/parties/${person.partyId}/erase`)).status).toBe(404);
    const erase = await agent.request(`${server.url}/app/parties/${person.partyId}/erase`, { form: { csrf } });
    expect(erase.status).toBe(404);
    expect(await tablesContaining(server.database.handle, person.marker)).not.toEqual([]);
  });
});
