// What an erasure leaves (docs/design.md section 15): a partner's re-sync carrying an erased
// ref is refused 409 Erased and writes nothing; a push without one is a new person; and
// pushes racing the erasure of the same person never leave a resurrected half-lead.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi } from './support/api-client.ts';
import { countRows, pushLead } from './support/lead-client.ts';
import { pushRichPerson, tablesContaining, uniqueMarker } from './support/personal-data.ts';
import { createTenant, startTestServer, type Tenant, type TestServer } from './support/test-server.ts';

let server: TestServer;
let tenant: Tenant;
let other: Tenant;
const SCOPES = ['leads:write', 'leads:read', 'parties:read', 'parties:update', 'parties:erase'];

beforeAll(async () => {
  server = await startTestServer();
  tenant = await createTenant(server.database.handle, SCOPES);
  other = await createTenant(server.database.handle, SCOPES);
});
afterAll(() => server.close());

const d = (t: Tenant = tenant) => `/distributions/${t.distributionId}`;

describe('a push after an erasure', () => {
  it('carrying an erased ref is 409 Erased on that ref and writes nothing, in either form of refs', async () => {
    const person = await pushRichPerson(server, tenant);
    expect((await callApi(server, tenant, 'DELETE', `${d()}/parties/${person.partyId}`)).status).toBe(200);
    const before = await countRows(server);

    const listed = await pushLead(server, tenant, 'customers', {
      prospect: {
        first_name: 'Back',
        last_name: 'Again',
        external_refs: [{ external_ref: 'someone-else' }, { external_ref: person.ref, external_ref_company: 'crm' }],
      },
    });
    expect(listed.status).toBe(409);
    expect(listed.body.detail.type).toBe('Erased');
    expect(listed.body.detail.errors).toEqual([
      expect.objectContaining({ type: 'Erased', target: 'prospect.external_refs.1' }),
    ]);
    const single = await pushLead(server, tenant, 'customers', {
      prospect: {
        first_name: 'Back',
        last_name: 'Again',
        external_ref: { external_ref: person.ref, external_ref_company: 'crm' },
      },
    });
    expect(single.status).toBe(409);
    expect(single.body.detail.errors[0].target).toBe('prospect.external_ref');
    const byId = await pushLead(server, tenant, 'customers', {
      prospect: { id: person.partyId, first_name: 'Back', last_name: 'Again' },
    });
    expect(byId.status).toBe(409);
    expect(byId.body.detail.errors[0].target).toBe('prospect.id');
    expect(await countRows(server)).toEqual(before);
    expect(await tablesContaining(server.database.handle, person.marker)).toEqual([]);
  });

  it('without an erased ref creates a new party; the same ref under another company or distribution is free', async () => {
    const person = await pushRichPerson(server, tenant);
    expect((await callApi(server, tenant, 'DELETE', `${d()}/parties/${person.partyId}`)).status).toBe(200);
    const again = await pushLead(server, tenant, 'customers', {
      prospect: { first_name: person.marker, last_name: 'Again', email: `${person.marker.toLowerCase()}@example.be` },
    });
    expect(again.status).toBe(201);
    expect(again.body.party_id).not.toBe(person.partyId);
    const otherCompany = await pushLead(server, tenant, 'customers', {
      prospect: {
        first_name: 'A',
        last_name: 'B',
        external_refs: [{ external_ref: person.ref, external_ref_company: 'other' }],
      },
    });
    expect(otherCompany.status).toBe(201);
    const otherDistribution = await pushLead(server, other, 'customers', {
      prospect: {
        first_name: 'A',
        last_name: 'B',
        external_refs: [{ external_ref: person.ref, external_ref_company: 'crm' }],
      },
    });
    expect(otherDistribution.status).toBe(201);
  });
});

describe('an erasure racing pushes to the same person', () => {
  it('never leaves a half-lead: each push lands before the erasure (and is erased) or is refused 409 Erased', async () => {
    for (let round = 0; round < 5; round++) {
      const marker = uniqueMarker();
      const ref = `race-${randomUUID()}`;
      const body = (n: number) => ({
        origin: marker,
        prospect: {
          first_name: marker,
          last_name: `Racer${n}`,
          external_refs: [{ external_ref: ref }],
          risk_objects: { cars: [{ brand: 'Volvo', model: marker, kw: 100 + n }] },
        },
      });
      const first = await pushLead(server, tenant, 'customers', body(0));
      expect(first.status).toBe(201);
      const pushes = Array.from({ length: 8 }, (_, n) => pushLead(server, tenant, 'customers', body(n + 1)));
      const erasure = callApi(server, tenant, 'DELETE', `${d()}/parties/${first.body.party_id}`);
      const statuses = (await Promise.all(pushes)).map((reply) => {
        if (reply.status === 409) expect(reply.body.detail.type).toBe('Erased');
        return reply.status;
      });
      expect((await erasure).status).toBe(200);
      for (const status of statuses) expect([200, 409]).toContain(status);
      // Nothing of the person stays: no lead found by the ref, no row with their text.
      const found = await callApi(server, tenant, 'GET', `${d()}/leads?external_ref=${ref}`);
      expect(found.body.items.filter((item: { erased?: boolean }) => !item.erased)).toEqual([]);
      expect(await tablesContaining(server.database.handle, marker)).toEqual([]);
      // And a push after it is refused.
      expect((await pushLead(server, tenant, 'customers', body(99))).status).toBe(409);
    }
  });
});
