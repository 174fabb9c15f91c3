// Rule 10: concurrent pushes that match the same party never create two.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createTenant, startTestServer, type Tenant, type TestServer } from './support/test-server.ts';
import { pushLead } from './support/lead-client.ts';

let server: TestServer;
let tenant: Tenant;

beforeAll(async () => {
  server = await startTestServer();
  tenant = await createTenant(server.database.handle);
});
afterAll(() => server.close());

async function pushConcurrently(body: unknown, count = 40) {
  const replies = await Promise.all(Array.from({ length: count }, () => pushLead(server, tenant, 'customers', body)));
  return {
    statuses: replies.map((r) => r.status).sort(),
    odd: replies.filter((r) => r.status !== 200 && r.status !== 201).map((r) => JSON.stringify(r.body)),
    leadIds: new Set(replies.map((r) => r.body.id)),
  };
}

describe('forty identical pushes at once', () => {
  it('give one lead by external ref: one 201, the rest 200', async () => {
    const body = {
      prospect: {
        first_name: 'Race',
        last_name: 'Condition',
        external_refs: [{ external_ref: `race-${randomUUID()}`, external_ref_company: 'crm' }],
        risk_objects: { cars: [{ vin: 'WVWZZZ1JZXW000009', brand: 'Seat' }] },
      },
    };
    const { statuses, leadIds } = await pushConcurrently(body);
    expect(statuses).toEqual([...Array(39).fill(200), 201]);
    expect(leadIds.size).toBe(1);
    const [leadId] = leadIds;
    const db = server.database.handle.db;
    const parties = await db
      .selectFrom('external_refs')
      .select('entity_id')
      .where('ref', '=', body.prospect.external_refs[0]!.external_ref)
      .execute();
    expect(parties).toHaveLength(1);
    const cars = await db
      .selectFrom('leads')
      .innerJoin('risk_objects', 'risk_objects.party_id', 'leads.party_id')
      .select('risk_objects.id')
      .where('leads.id', '=', leadId!)
      .execute();
    expect(cars).toHaveLength(1);
    const pushes = await db.selectFrom('lead_pushes').select('status').where('lead_id', '=', leadId!).execute();
    expect(pushes).toHaveLength(40);
  });

  it('give one lead by email + birth + address', async () => {
    const body = {
      prospect: {
        first_name: 'Race',
        last_name: 'Address',
        email: `${randomUUID()}@example.be`,
        birth: '1970-07-07',
        address: { housenr: '1', zipcode: '1000', city: 'Brussel' },
      },
    };
    const { statuses, leadIds, odd } = await pushConcurrently(body);
    expect(odd).toEqual([]);
    expect(statuses).toEqual([...Array(39).fill(200), 201]);
    expect(leadIds.size).toBe(1);
  });

  it('merge concurrently without losing an update', async () => {
    const created = await pushLead(server, tenant, 'customers', {
      prospect: { first_name: 'Many', last_name: 'Writers' },
    });
    const partyId = created.body.party_id;
    // Each push adds its own callback: all twenty must survive the concurrent merges.
    const urls = Array.from({ length: 20 }, (_, i) => `https://hooks.example.com/${i}`);
    const replies = await Promise.all(
      urls.map((url) =>
        pushLead(server, tenant, 'customers', {
          prospect: { id: partyId, first_name: 'Many', last_name: 'Writers', callbacks: [url] },
        }),
      ),
    );
    expect(replies.every((r) => r.status === 200)).toBe(true);
    const callbacks = await server.database.handle.db
      .selectFrom('party_callbacks')
      .select('url')
      .where('party_id', '=', partyId)
      .execute();
    expect(callbacks.map((c) => c.url).sort()).toEqual([...urls].sort());
  });
});
