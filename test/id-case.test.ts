// Ids are case-insensitive (RFC 9562; docs/design.md section 14): an upper-case party, lead
// or distribution id names the same row as the stored lower-case one for every method, on
// the API and in the CLI, and an erased one answers 410 in any case.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi } from './support/api-client.ts';
import { cliJson } from './support/cli.ts';
import { pushRichPerson } from './support/personal-data.ts';
import { createTenant, startTestServer, type Tenant, type TestServer } from './support/test-server.ts';

let server: TestServer;
let tenant: Tenant;
const SCOPES = ['leads:write', 'leads:read', 'parties:read', 'parties:update', 'parties:erase'];

beforeAll(async () => {
  server = await startTestServer();
  tenant = await createTenant(server.database.handle, SCOPES);
});
afterAll(() => server.close());

const up = (id: string) => id.toUpperCase();

describe('an id in upper case', () => {
  it('names the same party and lead for every method, and 410 once erased', async () => {
    const person = await pushRichPerson(server, tenant);
    const d = `/distributions/${up(tenant.distributionId)}`;

    const party = await callApi(server, tenant, 'GET', `${d}/parties/${up(person.partyId)}`);
    expect(party.status).toBe(200);
    expect(party.body.party_id ?? party.body.id).toBe(person.partyId);
    const lead = await callApi(server, tenant, 'GET', `${d}/leads/${up(person.leadId)}`);
    expect(lead.status).toBe(200);
    expect(lead.body.id).toBe(person.leadId);

    const patchedParty = await callApi(server, tenant, 'PATCH', `${d}/parties/${up(person.partyId)}`, {
      body: { telephonenr: '+32 9 111 11 11' },
    });
    expect(patchedParty.status).toBe(200);
    const patchedLead = await callApi(server, tenant, 'PATCH', `${d}/leads/${up(person.leadId)}`, {
      body: { status: 'contacted' },
    });
    expect(patchedLead.status).toBe(200);
    // The lower-case id reads what the upper-case writes wrote.
    const lower = `/distributions/${tenant.distributionId}`;
    const read = await callApi(server, tenant, 'GET', `${lower}/leads/${person.leadId}`);
    expect(read.body.status).toBe('contacted');
    expect(read.body.prospect.telephonenr).toBe('+32 9 111 11 11');

    const exported = await callApi(server, tenant, 'GET', `${d}/parties/${up(person.partyId)}/export`);
    expect(exported.status).toBe(200);
    expect(exported.body.party_id).toBe(person.partyId);
    const byCli = await cliJson(server.database.env, [
      'party',
      'export',
      '--distribution',
      up(tenant.distributionId),
      '--party',
      up(person.partyId),
    ]);
    expect(byCli.party_id).toBe(person.partyId);

    // A retry with the same Idempotency-Key that writes the id in another case is the same request.
    const key = { 'idempotency-key': `case-${person.partyId}` };
    const keyed = await callApi(server, tenant, 'PATCH', `${d}/leads/${up(person.leadId)}`, {
      body: { status: 'quoted' },
      headers: key,
    });
    expect(keyed.status).toBe(200);
    const retried = await callApi(server, tenant, 'PATCH', `${lower}/leads/${person.leadId}`, {
      body: { status: 'quoted' },
      headers: key,
    });
    expect(retried.status).toBe(200);
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    expect(retried.body).toEqual(keyed.body);

    const erased = await callApi(server, tenant, 'DELETE', `${d}/parties/${up(person.partyId)}`);
    expect(erased.status).toBe(200);
    expect(erased.body.party_id).toBe(person.partyId);
    for (const [method, path] of [
      ['GET', `${d}/parties/${up(person.partyId)}`],
      ['GET', `${d}/leads/${up(person.leadId)}`],
      ['GET', `${d}/parties/${up(person.partyId)}/export`],
      ['DELETE', `${d}/parties/${up(person.partyId)}`],
    ] as const) {
      const reply = await callApi(server, tenant, method, path);
      expect(reply.status, `${method} ${path}`).toBe(410);
      expect(reply.body.detail.type).toBe('Erased');
    }
    const patch = await callApi(server, tenant, 'PATCH', `${d}/parties/${up(person.partyId)}`, {
      body: { telephonenr: '+32 9 222 22 22' },
    });
    expect(patch.status).toBe(410);
    const leadPatch = await callApi(server, tenant, 'PATCH', `${d}/leads/${up(person.leadId)}`, {
      body: { status: 'won' },
    });
    expect(leadPatch.status).toBe(410);
  });
});
