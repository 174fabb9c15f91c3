// The upsert over sequences of pushes (docs/design.md section 2, rules 6 to 10): partners
// whose CRM renews the ids it sends on every sync, refs and VINs that move, and entries of
// one push that the merge would treat as one object (rule 9: refused, never collapsed).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi } from './support/api-client.ts';
import { countRows, pushLead } from './support/lead-client.ts';
import { createTenant, startTestServer, type Tenant, type TestServer } from './support/test-server.ts';

let server: TestServer;
let tenant: Tenant;

beforeAll(async () => {
  server = await startTestServer({ RATE_LIMIT: 'off' });
  tenant = await createTenant(server.database.handle, ['leads:write', 'leads:read', 'parties:read']);
});
afterAll(() => server.close());

const VIN_1 = 'WVWZZZ1JZXW000001';
const VIN_2 = 'WVWZZZ1JZXW000002';
const unique = () => randomUUID().slice(0, 8);
const address = { street: 'Kerkstraat', housenr: '12', zipcode: '2000', city: 'Antwerpen' };
const customer = (prospect: Record<string, unknown>) => ({
  prospect: { first_name: 'Els', last_name: 'Janssens', ...prospect },
});
const duplicate = (target: string) =>
  expect.objectContaining({ target, message: expect.stringMatching(/used more than once/) });

/** A CRM that makes a fresh UUID v4 for its package on every sync, as the specification allows. */
function sync(prospect: Record<string, unknown>, packageFields: Record<string, unknown> = {}) {
  const packageId = randomUUID();
  return customer({
    ...prospect,
    policy_packages: [{ id: packageId, name: 'Gezin', ...packageFields }],
    insurance_policies: [
      {
        insurance_company: 'AG',
        policy_nr: 'POL-1',
        policy_package_id: packageId,
        premium: '499.95',
        coverages: [{ name: 'BA', premium: '120.25' }],
      },
    ],
  });
}

async function readLead(id: string) {
  const reply = await callApi(server, tenant, 'GET', `/distributions/${tenant.distributionId}/leads/${id}`);
  expect(reply.status).toBe(200);
  return reply.body;
}

describe('a partner whose ids change between syncs', () => {
  it('re-pushes a lead whose package id is new: 200, the policy moves to the new package, nothing lost', async () => {
    const ref = { external_ref: unique(), external_ref_company: 'crm' };
    const first = await pushLead(server, tenant, 'customers', sync({ external_refs: [ref] }));
    expect(first.status).toBe(201);
    const again = await pushLead(server, tenant, 'customers', sync({ external_refs: [ref] }));
    expect(again.status).toBe(200);
    const lead = await readLead(first.body.id);
    // A package without a number has nothing but its id to be found by: the new id is a new package.
    expect(lead.policy_packages).toHaveLength(2);
    expect(lead.insurance_policies).toHaveLength(1);
    expect(lead.insurance_policies[0].policy_package_id).toBe(again.body.policy_packages[1].id);
    expect(lead.insurance_policies[0].coverages).toHaveLength(1);
  });

  it('finds a package with a renewed id by its insurance company + package number: one package after ten syncs', async () => {
    const ref = { external_ref: unique() };
    const answers: number[] = [];
    for (let i = 0; i < 10; i++) {
      const reply = await pushLead(
        server,
        tenant,
        'customers',
        sync({ external_refs: [ref] }, { package_nr: 'PK-1', insurance_company: 'AG', premium: `${100 + i}.00` }),
      );
      answers.push(reply.status);
    }
    expect(answers).toEqual([201, ...Array(9).fill(200)]);
    const reply = await pushLead(server, tenant, 'customers', customer({ external_refs: [ref] }));
    const lead = await readLead(reply.body.id);
    expect(lead.policy_packages.map((pkg: { premium: string }) => pkg.premium)).toEqual(['109.00']);
    expect(lead.insurance_policies[0].policy_package_id).toBe(lead.policy_packages[0].id);
  });

  it('answers fifty concurrent syncs of one lead matched by email + birth + address with one 201 and 49 x 200', async () => {
    const email = `${unique()}@example.be`;
    const replies = await Promise.all(
      Array.from({ length: 50 }, () =>
        pushLead(server, tenant, 'customers', sync({ email, birth: '1980-02-03', address })),
      ),
    );
    const statuses = replies.map((reply) => reply.status).sort();
    expect(statuses).toEqual([200, ...Array(49).fill(200)].fill(201, 0, 1).sort());
    expect(new Set(replies.map((reply) => reply.body.party_id)).size).toBe(1);
  });

  it('answers fifty concurrent pushes of one ref, half as a customer and half as a company, with one party and no 5xx', async () => {
    const ref = unique();
    const replies = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        i % 2 === 0
          ? pushLead(server, tenant, 'customers', sync({ external_refs: [{ external_ref: ref }] }))
          : pushLead(server, tenant, 'companies', {
              prospect: { name: 'Janssens BV', external_refs: [{ external_ref: ref }] },
            }),
      ),
    );
    const created = replies.filter((reply) => reply.status === 201);
    expect(created).toHaveLength(1);
    const winner = replies.indexOf(created[0]!) % 2;
    replies.forEach((reply, i) => {
      // Every push of the winning kind is merged into its party, every push of the other refused.
      if (i % 2 === winner) {
        expect([200, 201]).toContain(reply.status);
        expect(reply.body.party_id).toBe(created[0]!.body.party_id);
      } else {
        expect(reply.status).toBe(409);
      }
    });
  });

  it('stays 2xx over ten pushes with ids kept, renewed and moved, and the refs and VINs moving between cars', async () => {
    const ref = { external_ref: unique() };
    const [carA, carB] = [randomUUID(), randomUUID()];
    const pushes = [
      { cars: [{ id: carA, vin: VIN_1 }] },
      { cars: [{ id: carA, vin: VIN_1, kw: 90 }] },
      { cars: [{ id: randomUUID(), vin: VIN_1, kw: 91 }] },
      { cars: [{ id: carB, vin: VIN_2 }] },
      {
        cars: [
          { id: carA, vin: VIN_2 },
          { id: carB, vin: VIN_1 },
        ],
      },
      { cars: [{ vin: VIN_1, kw: 100 }] },
      { cars: [{ id: carB, vin: null }] },
      { cars: [{ id: carA, vin: VIN_1 }] },
      { cars: [{ id: randomUUID(), vin: VIN_2 }] },
      { cars: [{ id: carB, vin: VIN_2, kw: 70 }] },
    ];
    const statuses: number[] = [];
    for (const { cars } of pushes) {
      const reply = await pushLead(
        server,
        tenant,
        'customers',
        sync({ external_refs: [ref], risk_objects: { cars } }, { package_nr: 'PK', insurance_company: 'AG' }),
      );
      statuses.push(reply.status);
    }
    // Car B gave up VIN_2 (push 5) and its VIN (push 7), car A VIN_2 (push 8); push 9 adds
    // a third car with the free VIN_2, so push 10, giving car B that VIN, is the one refusal.
    expect(statuses).toEqual([201, 200, 200, 200, 200, 200, 200, 200, 200, 422]);
    const reply = await pushLead(server, tenant, 'customers', customer({ external_refs: [ref] }));
    const cars = reply.body.risk_object_revisions.cars.map((car: { risk_object_id: string; vin?: string }) => [
      car.risk_object_id,
      car.vin ?? null,
    ]);
    expect(cars).toEqual([
      [carA, VIN_1],
      [carB, null],
      [expect.any(String), VIN_2],
    ]);
  });
});

describe('entries of one push that the merge would treat as one object (rule 9)', () => {
  async function refused(body: unknown, targets: string[], kind: 'customers' | 'companies' = 'customers') {
    const before = await countRows(server);
    const reply = await pushLead(server, tenant, kind, body);
    expect(reply.status).toBe(422);
    expect(reply.body.detail.errors).toEqual(targets.map(duplicate));
    expect(reply.body.detail.errors[0].message).toMatch(/used more than once/);
    expect(await countRows(server)).toEqual(before);
  }

  it('refuses a first push with two cars of one VIN, instead of storing one car with the second one data', async () => {
    await refused(
      customer({
        risk_objects: {
          cars: [
            { vin: VIN_1, kw: 1 },
            { vin: VIN_1, kw: 2 },
          ],
        },
      }),
      ['prospect.risk_objects.cars.1.vin'],
    );
  });

  it('refuses two policies with one ref in a first push, and two policies of one number', async () => {
    await refused(
      customer({
        insurance_policies: [
          { name: 'a', external_refs: [{ ref: 'P-1' }] },
          { name: 'b', external_refs: [{ ref: 'P-1' }] },
          { insurance_company: 'AG', policy_nr: '7' },
          { insurance_company: 'AG', policy_nr: '7' },
        ],
      }),
      ['prospect.insurance_policies.3.policy_nr', 'prospect.insurance_policies.1.external_refs.0'],
    );
  });

  it('refuses a merge with two cars of the stored car VIN, instead of overwriting it with the second', async () => {
    const ref = { external_ref: unique() };
    const first = await pushLead(
      server,
      tenant,
      'customers',
      customer({ external_refs: [ref], risk_objects: { cars: [{ vin: VIN_1, kw: 1 }] } }),
    );
    expect(first.status).toBe(201);
    await refused(customer({ external_refs: [ref], risk_objects: { cars: [{ vin: VIN_1, kw: 2 }, { vin: VIN_1 }] } }), [
      'prospect.risk_objects.cars.1.vin',
    ]);
    const lead = await readLead(first.body.id);
    expect(lead.risk_object_revisions.cars).toEqual([expect.objectContaining({ vin: VIN_1, kw: 1 })]);
  });

  it('refuses two policies with one ref merged into a lead that has it on one policy (was a 500)', async () => {
    const ref = { external_ref: unique() };
    const policyRef = `P-${unique()}`;
    const first = await pushLead(
      server,
      tenant,
      'customers',
      customer({
        external_refs: [ref],
        insurance_policies: [{ insurance_company: 'AG', policy_nr: '1', external_refs: [{ ref: policyRef }] }],
      }),
    );
    expect(first.status).toBe(201);
    await refused(
      customer({
        external_refs: [ref],
        insurance_policies: [
          { insurance_company: 'AG', policy_nr: '1', external_refs: [{ ref: policyRef }] },
          { insurance_company: 'AG', policy_nr: '2', external_refs: [{ ref: policyRef }] },
        ],
      }),
      ['prospect.insurance_policies.1.external_refs.0'],
    );
  });

  it('refuses a car found by its VIN and a second entry naming that car by id', async () => {
    const ref = { external_ref: unique() };
    const carId = randomUUID();
    const first = await pushLead(
      server,
      tenant,
      'customers',
      customer({ external_refs: [ref], risk_objects: { cars: [{ id: carId, vin: VIN_1 }] } }),
    );
    expect(first.status).toBe(201);
    await refused(
      customer({
        external_refs: [ref],
        risk_objects: {
          cars: [
            { vin: VIN_1, kw: 5 },
            { id: carId, kw: 6 },
          ],
        },
      }),
      ['prospect.risk_objects.cars.1.id'],
    );
  });

  it('refuses two residences at one address, two packages of one number, and a ref or callback given twice', async () => {
    const residence = { address: { ...address, city: 'ANTWERPEN' } };
    await refused(
      customer({
        external_refs: [{ external_ref: 'same' }, { external_ref: 'same' }],
        callbacks: ['https://crm.example.com/hook', 'https://crm.example.com/hook'],
        risk_objects: { residences: [{ address }, residence] },
        policy_packages: [
          { id: randomUUID(), package_nr: 'PK', insurance_company: 'AG' },
          { id: randomUUID(), package_nr: 'PK', insurance_company: 'AG' },
        ],
      }),
      // The body's own duplicates come with the schema's problems; the merge's after them.
      ['prospect.external_refs.1', 'prospect.callbacks.1'],
    );
    await refused(
      customer({
        risk_objects: { residences: [{ address }, residence] },
        policy_packages: [
          { id: randomUUID(), package_nr: 'PK', insurance_company: 'AG' },
          { id: randomUUID(), package_nr: 'PK', insurance_company: 'AG' },
        ],
      }),
      ['prospect.risk_objects.residences.1.address', 'prospect.policy_packages.1.package_nr'],
    );
  });
});
