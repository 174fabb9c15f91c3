// Every route against every API token scope: 2xx with the route's scope, 403 without it
// (docs/design.md section 4; docs/operations.md, "CLI").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createTenant, startTestServer, type Tenant, type TestServer } from './support/test-server.ts';
import { createApiToken } from '../src/auth/api-token.service.ts';
import { API_TOKEN_SCOPES } from '../src/auth/caller.ts';
import { callApi } from './support/api-client.ts';
import { pushLead } from './support/lead-client.ts';

let server: TestServer;
let owner: Tenant;
let ids: { leadId: string; partyId: string; carId: string; revisionId: string };

beforeAll(async () => {
  server = await startTestServer();
  owner = await createTenant(server.database.handle, ['leads:write']);
  const carId = randomUUID();
  const pushed = await pushLead(server, owner, 'customers', {
    prospect: { first_name: 'Scope', last_name: 'Matrix', risk_objects: { cars: [{ id: carId }] } },
  });
  ids = {
    leadId: pushed.body.id,
    partyId: pushed.body.party_id,
    carId,
    revisionId: pushed.body.risk_object_revisions.cars[0].risk_object_revision_id,
  };
});
afterAll(() => server.close());

const routes = () => {
  const d = `/distributions/${owner.distributionId}`;
  const party = `${d}/parties/${ids.partyId}`;
  return [
    {
      scope: 'leads:write',
      method: 'POST',
      path: `${d}/leads/customers`,
      body: { prospect: { first_name: 'A', last_name: 'B' } },
    },
    { scope: 'leads:write', method: 'POST', path: `${d}/leads/companies`, body: { prospect: { name: 'C' } } },
    {
      scope: 'leads:write',
      method: 'POST',
      path: `${d}/leads/batch`,
      body: { leads: [{ type: 'COMPANY', prospect: { name: 'D' } }] },
    },
    { scope: 'leads:read', method: 'GET', path: `${d}/leads/${ids.leadId}` },
    { scope: 'leads:read', method: 'GET', path: `${d}/leads?limit=1` },
    { scope: 'leads:read', method: 'GET', path: `${d}/leads/${ids.leadId}/pushes` },
    { scope: 'parties:read', method: 'GET', path: party },
    { scope: 'parties:read', method: 'GET', path: `${party}/risk_objects/${ids.carId}/revisions` },
    { scope: 'parties:read', method: 'GET', path: `${party}/risk_objects/${ids.carId}/revisions/${ids.revisionId}` },
    { scope: 'parties:read', method: 'GET', path: `${party}/export` },
    { scope: 'parties:read', method: 'GET', path: `${d}/users` },
    { scope: 'parties:update', method: 'PATCH', path: party, body: { telephonenr: '+32 2 000 00 00' } },
    // An erasure would take the party from the routes after it: erasing an unknown party
    // shows the scope let the caller in (404), as a refused one would not (403).
    { scope: 'parties:erase', method: 'DELETE', path: `${d}/parties/${randomUUID()}`, allowed: [404] },
  ];
};

describe('scope matrix', () => {
  for (const scope of API_TOKEN_SCOPES) {
    it(`a token with only ${scope}`, async () => {
      const { token } = await createApiToken(server.database.handle.db, {
        distributionId: owner.distributionId,
        scopes: [scope],
      });
      for (const route of routes()) {
        const reply = await callApi(
          server,
          { token },
          route.method,
          route.path,
          route.body ? { body: route.body } : {},
        );
        const expected = route.scope === scope ? (route.allowed ?? [200, 201]) : [403];
        expect(expected, `${route.method} ${route.path} -> ${reply.status}`).toContain(reply.status);
        if (reply.status === 403) expect(reply.body.detail.type).toBe('Forbidden');
      }
    });
  }

  it('a token of another distribution gets 403 on every route, even with every scope', async () => {
    const stranger = await createTenant(server.database.handle, [...API_TOKEN_SCOPES]);
    for (const route of routes()) {
      const reply = await callApi(server, stranger, route.method, route.path, route.body ? { body: route.body } : {});
      expect(reply.status, `${route.method} ${route.path}`).toBe(403);
    }
  });
});
