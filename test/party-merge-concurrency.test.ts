// Merges under concurrent pushes of either party, at two server processes on one PostgreSQL
// database (docs/api.md, "Merging two parties"; docs/design.md section 9): no 5xx, no lost
// write (every car a push added is on the survivor afterwards), every push lands on one of
// the two parties (and so, after the merge, on the survivor) or is refused.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { callApi } from './support/api-client.ts';
import { pushLead } from './support/lead-client.ts';
import { type ServerProcess, startServerProcess } from './support/server-process.ts';
import { createTenant, createTestDatabase, dialect, type Tenant, type TestDatabase } from './support/test-server.ts';

let database: TestDatabase;
let tenant: Tenant;
let servers: ServerProcess[] = [];

beforeAll(async () => {
  if (dialect !== 'postgres') return;
  database = await createTestDatabase();
  tenant = await createTenant(database.handle, ['leads:write', 'leads:read', 'parties:read', 'parties:update']);
  servers = await Promise.all([startServerProcess(database.env), startServerProcess(database.env)]);
}, 90_000);
afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  await database?.drop();
}, 90_000);

let vins = 0;
const nextVin = () => `WVWZZZ1JZXW${String(100000 + (vins++ % 900000))}`;

it.runIf(dialect === 'postgres')(
  'merges while both parties are pushed at two processes: no 5xx, no lost car, every push on the survivor or refused',
  async () => {
    for (let round = 0; round < 3; round++) {
      const refs = [`s-${randomUUID()}`, `f-${randomUUID()}`];
      const prospect = (ref: string, extra: Record<string, unknown> = {}) => ({
        first_name: 'Race',
        last_name: 'Merge',
        external_refs: [{ external_ref: ref, external_ref_company: 'crm' }],
        ...extra,
      });
      const [survivor, merged] = await Promise.all(
        refs.map((ref) => pushLead(servers[0]!, tenant, 'customers', { prospect: prospect(ref) })),
      );
      const [s, f] = [survivor!.body.party_id as string, merged!.body.party_id as string];
      const pushed: string[] = [];
      const pushes = Array.from({ length: 16 }, (_, i) => {
        const vin = nextVin();
        pushed.push(vin);
        // Either party's ref, or the merged party's id, at either process.
        const body =
          i % 4 === 3
            ? { prospect: { id: f, first_name: 'Race', last_name: 'Merge', risk_objects: { cars: [{ vin }] } } }
            : { prospect: prospect(refs[i % 2]!, { risk_objects: { cars: [{ vin }] } }) };
        return pushLead(servers[i % 2]!, tenant, 'customers', body);
      });
      const merging = callApi(
        servers[round % 2]!,
        tenant,
        'POST',
        `/distributions/${tenant.distributionId}/parties/${s}/merge`,
        {
          body: { from: f },
        },
      );
      const [mergeReply, ...replies] = await Promise.all([merging, ...pushes]);
      expect(mergeReply!.status, JSON.stringify(mergeReply!.body)).toBe(200);
      const odd = replies
        .filter((reply) => reply.status >= 500 || (reply.status === 200 && ![s, f].includes(reply.body.party_id)))
        .map((reply) => `${reply.status} ${JSON.stringify(reply.body)}`);
      expect(odd).toEqual([]);
      const landed = replies.filter((reply) => reply.status === 200).length;
      expect(landed + replies.filter((reply) => reply.status === 409 || reply.status === 422).length).toBe(16);

      // Every car a 200 push added is on the survivor; the merged party is gone.
      const read = await callApi(servers[0]!, tenant, 'GET', `/distributions/${tenant.distributionId}/parties/${s}`);
      const cars = new Set(read.body.risk_objects.cars.map((car: { vin: string }) => car.vin));
      const accepted = pushed.filter((_, i) => replies[i]!.status === 200);
      expect(accepted.filter((vin) => !cars.has(vin))).toEqual([]);
      const gone = await callApi(servers[1]!, tenant, 'GET', `/distributions/${tenant.distributionId}/parties/${f}`);
      expect(gone.status).toBe(410);
      expect(gone.body.detail.type).toBe('Merged');
    }
  },
  120_000,
);
