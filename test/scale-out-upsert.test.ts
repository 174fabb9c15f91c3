// Rule 10 across processes (docs/design.md sections 2 and 9): a partner's ordinary retry,
// the same full push sent many times at once to two server processes on one PostgreSQL
// database, gives one lead: one 201, the rest 200, never a 409 ("already belongs to
// another party") that a serial run would not give; batch items (section 14) alike.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTenant, createTestDatabase, dialect, type Tenant, type TestDatabase } from './support/test-server.ts';
import { startServerProcess, type ServerProcess } from './support/server-process.ts';
import { pushLead } from './support/lead-client.ts';

let database: TestDatabase;
let tenant: Tenant;
let servers: ServerProcess[] = [];

beforeAll(async () => {
  if (dialect !== 'postgres') return;
  database = await createTestDatabase();
  tenant = await createTenant(database.handle, ['leads:write']);
  servers = await Promise.all([startServerProcess(database.env), startServerProcess(database.env)]);
}, 90_000);
afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  await database?.drop();
}, 90_000);

function fullPush() {
  const [car1, car2, residence, pkg] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
  const suffix = randomUUID().slice(0, 8);
  return {
    origin: 'retrying-crm',
    prospect: {
      first_name: 'Twice',
      last_name: 'Sent',
      external_refs: [{ external_ref: `crm-${suffix}`, external_ref_company: 'crm' }],
      risk_objects: {
        cars: [
          { id: car1, vin: `WVWZZZ1JZ${suffix.toUpperCase().replace(/[IOQ]/g, '0')}`, brand: 'Volkswagen' },
          { id: car2, brand: 'Seat' },
        ],
        residences: [
          { id: residence, address: { street: 'Wetstraat', housenr: '16', zipcode: '1000', city: 'Brussel' } },
        ],
      },
      policy_packages: [{ id: pkg, name: 'Family', insurance_company: 'Example Insurance' }],
      insurance_policies: [
        {
          name: 'Car',
          policy_package_id: pkg,
          insurance_company: 'Example Insurance',
          external_refs: [{ ref: `pol-${suffix}-1`, company: 'crm' }],
          coverages: [{ name: 'Liability', risk_object_id: car1, premium: '320.00', payment_interval: 'ANNUAL' }],
        },
        {
          name: 'Home',
          policy_package_id: pkg,
          insurance_company: 'Example Insurance',
          external_refs: [{ ref: `pol-${suffix}-2`, company: 'crm' }],
          coverages: [{ name: 'Fire', risk_object_id: residence, premium: '180.00', payment_interval: 'ANNUAL' }],
        },
      ],
    },
  };
}

it.runIf(dialect === 'postgres')(
  'gives one lead for identical full pushes spread over two processes: one 201, the rest 200',
  async () => {
    for (let round = 0; round < 3; round++) {
      const body = fullPush();
      const replies = await Promise.all(
        Array.from({ length: 50 }, (_, i) => pushLead(servers[i % 2]!, tenant, 'customers', body)),
      );
      const odd = replies
        .filter((reply) => reply.status !== 200 && reply.status !== 201)
        .map((reply) => `${reply.status} ${JSON.stringify(reply.body)}`);
      expect(odd).toEqual([]);
      expect(replies.map((reply) => reply.status).sort()).toEqual([...Array(49).fill(200), 201]);
      expect(new Set(replies.map((reply) => reply.body.id)).size).toBe(1);
    }
  },
  90_000,
);

it.runIf(dialect === 'postgres')(
  'gives one lead when batches and single pushes name it at once at two processes: never a 409 between them',
  async () => {
    for (let round = 0; round < 3; round++) {
      const body = fullPush();
      const replies = await Promise.all(
        Array.from({ length: 24 }, async (_, i) => {
          const server = servers[i % 2]!;
          if (i % 3 !== 0) return [await pushLead(server, tenant, 'customers', body)];
          const response = await fetch(`${server.url}/v1/api/distributions/${tenant.distributionId}/leads/batch`, {
            method: 'POST',
            headers: { authorization: `apikey ${tenant.token}`, 'content-type': 'application/json' },
            body: JSON.stringify({
              leads: [
                { type: 'CUSTOMER', ...body },
                { type: 'CUSTOMER', ...body },
              ],
            }),
          });
          const batch = (await response.json()) as {
            results: Array<{ status: number; lead?: unknown; error?: unknown }>;
          };
          return batch.results.map((result) => ({ status: result.status, body: result.lead ?? result.error }));
        }),
      );
      const answers = replies.flat() as Array<{ status: number; body: any }>;
      const odd = answers
        .filter((answer) => answer.status !== 200 && answer.status !== 201)
        .map((answer) => `${answer.status} ${JSON.stringify(answer.body)}`);
      expect(odd).toEqual([]);
      expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1);
      expect(new Set(answers.map((answer) => answer.body.id)).size).toBe(1);
    }
  },
  90_000,
);
