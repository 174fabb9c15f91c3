// A customer's match key (email + birth date + address, docs/design.md section 2, rule 4) as its
// row keeps it, through pushes and party updates: written when it changes, left as it is when
// a write keeps it (SQLite's update then leaves the column out, docs/benchmarks.md), so over a
// sequence the stored key is always the one the party's fields give, and a key given up is
// free for another person at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi } from './support/api-client.ts';
import { pushLead } from './support/lead-client.ts';
import { createTenant, startTestServer, type Tenant, type TestServer } from './support/test-server.ts';

let server: TestServer;
let tenant: Tenant;

beforeAll(async () => {
  server = await startTestServer();
  tenant = await createTenant(server.database.handle, ['leads:write', 'leads:read', 'parties:update']);
});
afterAll(() => server.close());

const storedKey = async (partyId: string) =>
  (
    await server.database.handle.db
      .selectFrom('parties')
      .select('match_key')
      .where('id', '=', partyId)
      .executeTakeFirstOrThrow()
  ).match_key;

describe("a customer's stored match key through pushes and party updates", () => {
  it('follows every change of e-mail, birth date or address, stays through writes that keep them, and frees a key given up', async () => {
    const ref = `key-${Date.now()}`;
    const gent = { street: 'Veldstraat', housenr: '1', zipcode: '9000', city: 'Gent', country_code: 'BE' };
    const person = { first_name: 'Jan', last_name: 'Peeters', birth: '1980-05-01', address: gent };
    const push = (prospect: Record<string, unknown>) =>
      pushLead(server, tenant, 'customers', { prospect: { ...prospect, external_ref: { external_ref: ref } } });
    const patch = (partyId: string, body: Record<string, unknown>) =>
      callApi(server, tenant, 'PATCH', `/distributions/${tenant.distributionId}/parties/${partyId}`, { body });

    const first = await push({ ...person, email: `first-${ref}@example.be` });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const partyId = first.body.party_id as string;
    const firstKey = await storedKey(partyId);
    expect(firstKey).toContain(`first-${ref}@example.be`);

    // A new telephone number keeps the key; the tenth such push as the first.
    for (let i = 0; i < 10; i++) {
      const again = await push({ ...person, email: `first-${ref}@example.be`, telephonenr: `0470 00 00 ${10 + i}` });
      expect(again.status, JSON.stringify(again.body)).toBe(200);
      expect(await storedKey(partyId)).toBe(firstKey);
    }

    // Another e-mail: another key, and the first one is free for someone else.
    expect((await push({ ...person, email: `second-${ref}@example.be` })).status).toBe(200);
    const secondKey = await storedKey(partyId);
    expect(secondKey).toContain(`second-${ref}@example.be`);
    const other = await pushLead(server, tenant, 'customers', {
      prospect: { ...person, email: `first-${ref}@example.be` },
    });
    expect(other.status, JSON.stringify(other.body)).toBe(201);
    expect(other.body.party_id).not.toBe(partyId);
    expect(await storedKey(other.body.party_id)).toBe(firstKey);

    // A party update of the address changes it; one of the telephone number keeps it.
    expect((await patch(partyId, { address: { ...gent, housenr: '2' } })).status).toBe(200);
    const thirdKey = await storedKey(partyId);
    expect(thirdKey).not.toBe(secondKey);
    expect((await patch(partyId, { telephonenr: '0470 99 99 99' })).status).toBe(200);
    expect(await storedKey(partyId)).toBe(thirdKey);

    // Without an e-mail the customer has no key.
    expect((await patch(partyId, { email: null })).status).toBe(200);
    expect(await storedKey(partyId)).toBeNull();
  });
});
