// One VIN rule for pushes, party updates and the VIN decoder (docs/api.md, "Pushing a lead"):
// 17 characters of 0-9 and A-Z without I, O and Q (ISO 3779), in either case, kept and
// answered in capitals, so a VIN in any case names one car. Through real HTTP, on both
// databases; refused pushes write nothing.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi } from './support/api-client.ts';
import { countRows, pushLead } from './support/lead-client.ts';
import { createTenant, startTestServer, type Tenant, type TestServer } from './support/test-server.ts';

let server: TestServer;
let tenant: Tenant;

beforeAll(async () => {
  server = await startTestServer({ RATE_LIMIT: 'off' });
  tenant = await createTenant(server.database.handle, [
    'leads:write',
    'leads:read',
    'parties:read',
    'parties:update',
    'vehicle:read',
  ]);
});
afterAll(() => server?.close());

const carLead = (cars: object[], ref = randomUUID()) => ({
  prospect: {
    first_name: 'Els',
    last_name: 'Janssens',
    external_refs: [{ external_ref: ref, external_ref_company: 'crm' }],
    risk_objects: { cars },
  },
});

describe('the same rule at the decoder and in a push', () => {
  it.each([
    ['WVWZZZ1JZXW000001', true],
    ['wvwzzz1jzxw000001', true],
    ['WvWzZz1JzXw000001', true],
    ['WVWZZZ1JZXW00001', false], // 16 characters
    ['WVWZZZ1JZXW0000012', false], // 18
    ['WVWZZZ1JZXW0O0001', false], // O
    ['WVWZZZ1JZXW0i0001', false], // i
    ['WVWZZZ1JZXW0q0001', false], // q
    ['WVWZZZ1JZXW00000-', false],
  ])('%s: accepted %s by both', async (vin, accepted) => {
    const decoded = await callApi(server, tenant, 'GET', `/vehicles/vin/${encodeURIComponent(vin)}`);
    expect(decoded.status).toBe(accepted ? 200 : 422);
    const before = await countRows(server);
    const pushed = await pushLead(server, tenant, 'customers', carLead([{ vin }]));
    if (accepted) {
      expect(pushed.status).toBe(201);
      // Kept and answered in capitals, as the decoder answers it.
      expect(pushed.body.risk_object_revisions.cars[0].vin).toBe(vin.toUpperCase());
      expect(decoded.body.vin).toBe(vin.toUpperCase());
    } else {
      expect(pushed.status).toBe(422);
      expect(pushed.body.detail.errors).toEqual([
        {
          type: 'ValidationError',
          target: 'prospect.risk_objects.cars.0.vin',
          message:
            "Error for 'vin'. The specified value is invalid: a VIN of 17 characters without I, O or Q is expected.",
        },
      ]);
      expect(await countRows(server)).toEqual(before);
    }
  });
});

describe('a VIN in any case names one car', () => {
  it('a re-push in capitals finds the car pushed in lower case: same object, same revision', async () => {
    const ref = randomUUID();
    const first = await pushLead(server, tenant, 'customers', carLead([{ vin: 'wvwzzz1jzxw000007', kw: 81 }], ref));
    expect(first.status).toBe(201);
    const again = await pushLead(server, tenant, 'customers', carLead([{ vin: 'WVWZZZ1JZXW000007', kw: 81 }], ref));
    expect(again.status).toBe(200);
    const [before] = first.body.risk_object_revisions.cars;
    const [after] = again.body.risk_object_revisions.cars;
    expect(again.body.risk_object_revisions.cars).toHaveLength(1);
    expect(after.risk_object_id).toBe(before.risk_object_id);
    expect(after.risk_object_revision_id).toBe(before.risk_object_revision_id);
    const read = await callApi(server, tenant, 'GET', `/distributions/${tenant.distributionId}/leads/${first.body.id}`);
    expect(read.body.risk_object_revisions.cars.map((car: { vin: string }) => car.vin)).toEqual(['WVWZZZ1JZXW000007']);
  });

  it('two cars of one push whose VINs differ only in case are one car used twice: 422, nothing written', async () => {
    const before = await countRows(server);
    const pushed = await pushLead(
      server,
      tenant,
      'customers',
      carLead([{ vin: 'WVWZZZ1JZXW000008' }, { vin: 'wvwzzz1jzxw000008' }]),
    );
    expect(pushed.status).toBe(422);
    expect(pushed.body.detail.errors).toEqual([
      expect.objectContaining({
        target: 'prospect.risk_objects.cars.1.vin',
        message: "Error for 'vin'. The specified value is used more than once.",
      }),
    ]);
    expect(await countRows(server)).toEqual(before);
  });

  it('a party update keeps a VIN in capitals too', async () => {
    const first = await pushLead(server, tenant, 'customers', carLead([{ vin: 'WVWZZZ1JZXW000009' }]));
    const party = `/distributions/${tenant.distributionId}/parties/${first.body.party_id}`;
    const [car] = first.body.risk_object_revisions.cars;
    const patched = await callApi(server, tenant, 'PATCH', party, {
      body: { risk_objects: { cars: [{ id: car.risk_object_id, vin: 'wvwzzz1jzxw000010' }] } },
    });
    expect(patched.status).toBe(200);
    const read = await callApi(server, tenant, 'GET', party);
    expect(read.body.risk_objects.cars.map((c: { vin: string }) => c.vin)).toEqual(['WVWZZZ1JZXW000010']);
  });
});
