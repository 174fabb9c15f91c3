// A push with schema problems and references that name nothing reports both in one 422
// (docs/design.md section 3: a car id `not-a-uuid` used to hide a dangling policy_package_id).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createTenant, startTestServer, type Tenant, type TestServer } from './support/test-server.ts';
import { countRows, pushLead } from './support/lead-client.ts';

let server: TestServer;
let tenant: Tenant;

beforeAll(async () => {
  server = await startTestServer();
  tenant = await createTenant(server.database.handle);
});
afterAll(() => server.close());

const customer = (prospect: Record<string, unknown>) => ({
  prospect: { first_name: 'Els', last_name: 'Janssens', ...prospect },
});
const targets = (body: any) => body.detail.errors.map((error: any) => error.target);

describe('a push with schema problems and dangling references', () => {
  it('lists both in one 422 and writes nothing', async () => {
    const before = await countRows(server);
    const reply = await pushLead(
      server,
      tenant,
      'customers',
      customer({
        risk_objects: { cars: [{ id: 'not-a-uuid' }] },
        insurance_policies: [{ policy_package_id: randomUUID(), coverages: [{ risk_object_id: randomUUID() }] }],
      }),
    );
    expect(reply.status).toBe(422);
    expect(targets(reply.body)).toEqual([
      'prospect.risk_objects.cars.0.id',
      'prospect.insurance_policies.0.policy_package_id',
      'prospect.insurance_policies.0.coverages.0.risk_object_id',
    ]);
    expect(reply.body.detail.errors[1].message).toBe(
      "Error for 'policy_package_id'. The specified value does not refer to a known object.",
    );
    expect(reply.body.detail.error_str.startsWith('3 validation errors for CustomerLead')).toBe(true);
    expect(await countRows(server)).toEqual(before);
  });

  it('does not report a reference to an object of the push, nor one to a stored object, which only matching can judge', async () => {
    const packageId = randomUUID();
    const stored = await pushLead(server, tenant, 'customers', customer({ policy_packages: [{ id: packageId }] }));
    expect(stored.status).toBe(201);
    const carId = randomUUID();
    const reply = await pushLead(
      server,
      tenant,
      'customers',
      customer({
        id: stored.body.party_id,
        risk_objects: { cars: [{ id: carId, vin: 'not a vin' }] },
        insurance_policies: [{ policy_package_id: packageId, coverages: [{ risk_object_id: carId }] }],
      }),
    );
    expect(reply.status).toBe(422);
    expect(targets(reply.body)).toEqual(['prospect.risk_objects.cars.0.vin']);
  });
});
