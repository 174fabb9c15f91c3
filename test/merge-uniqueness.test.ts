// A merge that would give a party two cars with one VIN, or two policies with one
// insurance company + policy number, is refused as 422 `duplicate` on the pushed field and
// writes nothing (issue 11: these were 500); values that only move between the party's
// own rows (a swap) are stored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createTenant, startTestServer, type Tenant, type TestServer } from './support/test-server.ts';
import { countRows, pushLead } from './support/lead-client.ts';
import { callApi } from './support/api-client.ts';

let server: TestServer;
let tenant: Tenant;

beforeAll(async () => {
  server = await startTestServer();
  tenant = await createTenant(server.database.handle, ['leads:write', 'leads:read', 'parties:read', 'parties:update']);
});
afterAll(() => server.close());

const VIN_1 = 'WVWZZZ1JZXW000001';
const VIN_2 = 'WVWZZZ1JZXW000002';
const customer = (prospect: Record<string, unknown>) => ({
  prospect: { first_name: 'Els', last_name: 'Janssens', ...prospect },
});
const errorsOf = (body: any) =>
  body.detail.errors.map((error: any) => ({ type: error.type, target: error.target, message: error.message }));
const duplicate = (target: string, field: string) => ({
  type: 'ValidationError',
  target,
  message: `Error for '${field}'. The specified value is used more than once.`,
});

async function partyWithTwoCars() {
  const [a, b] = [randomUUID(), randomUUID()];
  const pushed = await pushLead(
    server,
    tenant,
    'customers',
    customer({
      risk_objects: {
        cars: [
          { id: a, vin: VIN_1 },
          { id: b, vin: VIN_2 },
        ],
      },
    }),
  );
  expect(pushed.status).toBe(201);
  return { partyId: pushed.body.party_id as string, a, b };
}

async function partyWithTwoPolicies() {
  const [r1, r2] = [randomUUID(), randomUUID()];
  const pushed = await pushLead(
    server,
    tenant,
    'customers',
    customer({
      insurance_policies: [
        { insurance_company: 'AG', policy_nr: '1', external_refs: [{ ref: r1 }] },
        { insurance_company: 'AG', policy_nr: '2', external_refs: [{ ref: r2 }] },
      ],
    }),
  );
  expect(pushed.status).toBe(201);
  return { partyId: pushed.body.party_id as string, r1, r2 };
}

describe('a merge that breaks a uniqueness rule', () => {
  it("answers 422 on the VIN when a re-pushed car carries another car of the party's VIN, and writes nothing", async () => {
    const { partyId, b } = await partyWithTwoCars();
    const before = await countRows(server);
    const reply = await pushLead(
      server,
      tenant,
      'customers',
      customer({ id: partyId, risk_objects: { cars: [{ id: b, vin: VIN_1 }] } }),
    );
    expect(reply.status).toBe(422);
    expect(errorsOf(reply.body)).toEqual([duplicate('prospect.risk_objects.cars.0.vin', 'vin')]);
    expect(await countRows(server)).toEqual(before);
  });

  it('answers 422 on the second car when both re-pushed cars carry one VIN', async () => {
    const { partyId, a, b } = await partyWithTwoCars();
    const reply = await pushLead(
      server,
      tenant,
      'customers',
      customer({
        id: partyId,
        risk_objects: {
          cars: [
            { id: a, vin: VIN_1 },
            { id: b, vin: VIN_1 },
          ],
        },
      }),
    );
    expect(reply.status).toBe(422);
    expect(errorsOf(reply.body)).toEqual([duplicate('prospect.risk_objects.cars.1.vin', 'vin')]);
  });

  it("answers 422 on the policy number when a policy found by its ref takes another policy's number, and writes nothing", async () => {
    const { partyId, r2 } = await partyWithTwoPolicies();
    const before = await countRows(server);
    const reply = await pushLead(
      server,
      tenant,
      'customers',
      customer({
        id: partyId,
        insurance_policies: [{ insurance_company: 'AG', policy_nr: '1', external_refs: [{ ref: r2 }] }],
      }),
    );
    expect(reply.status).toBe(422);
    expect(errorsOf(reply.body)).toEqual([duplicate('prospect.insurance_policies.0.policy_nr', 'policy_nr')]);
    expect(await countRows(server)).toEqual(before);
  });
});

describe("unique values moving between the party's own rows", () => {
  it('stores two cars swapping their VINs in one push', async () => {
    const { partyId, a, b } = await partyWithTwoCars();
    const reply = await pushLead(
      server,
      tenant,
      'customers',
      customer({
        id: partyId,
        risk_objects: {
          cars: [
            { id: a, vin: VIN_2 },
            { id: b, vin: VIN_1 },
          ],
        },
      }),
    );
    expect(reply.status).toBe(200);
    const cars = reply.body.risk_object_revisions.cars.map((car: any) => [car.risk_object_id, car.vin]);
    expect(cars).toEqual([
      [a, VIN_2],
      [b, VIN_1],
    ]);
  });

  it('stores two policies swapping their numbers in one push', async () => {
    const { partyId, r1, r2 } = await partyWithTwoPolicies();
    const reply = await pushLead(
      server,
      tenant,
      'customers',
      customer({
        id: partyId,
        insurance_policies: [
          { insurance_company: 'AG', policy_nr: '2', external_refs: [{ ref: r1 }] },
          { insurance_company: 'AG', policy_nr: '1', external_refs: [{ ref: r2 }] },
        ],
      }),
    );
    expect(reply.status).toBe(200);
    expect(reply.body.insurance_policies.map((policy: any) => policy.policy_nr)).toEqual(['2', '1']);
  });

  it("stores a PATCH that swaps two cars' VINs, and one that gives a removed car's VIN to another", async () => {
    const { partyId, a, b } = await partyWithTwoCars();
    const path = `/distributions/${tenant.distributionId}/parties/${partyId}`;
    const swapped = await callApi(server, tenant, 'PATCH', path, {
      body: {
        risk_objects: {
          cars: [
            { id: a, vin: VIN_2 },
            { id: b, vin: VIN_1 },
          ],
        },
      },
    });
    expect(swapped.status).toBe(200);
    expect(swapped.body.risk_objects.cars.map((car: any) => [car.risk_object_id, car.vin])).toEqual([
      [a, VIN_2],
      [b, VIN_1],
    ]);
    const taken = await callApi(server, tenant, 'PATCH', path, {
      body: { risk_objects: { cars: [{ id: b, vin: VIN_2 }] } },
    });
    expect(taken.status).toBe(200);
    expect(taken.body.risk_objects.cars.map((car: any) => [car.risk_object_id, car.vin])).toEqual([[b, VIN_2]]);
  });
});
