// Possible-duplicate keys for parties stored before the keys existed (docs/operations.md,
// "Possible-duplicate keys of older parties"), on both databases: parties pushed, their keys
// deleted as a database of before migration 2026-11-28T05-00 has none, are not found as
// duplicates; `lead-intake party duplicate-keys` (in small batches) keys them as a push
// would, after which they are found with the same reasons; run again, it writes nothing.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi } from './support/api-client.ts';
import { cliJson } from './support/cli.ts';
import { pushLead } from './support/lead-client.ts';
import { createTenant, startTestServer, type Tenant, type TestServer } from './support/test-server.ts';

let server: TestServer;
let tenant: Tenant;

beforeAll(async () => {
  server = await startTestServer();
  tenant = await createTenant(server.database.handle, ['leads:write', 'parties:read']);
});
afterAll(() => server.close());

const duplicatesOf = async (partyId: string) => {
  const reply = await callApi(
    server,
    tenant,
    'GET',
    `/distributions/${tenant.distributionId}/parties/${partyId}/duplicates`,
  );
  expect(reply.status).toBe(200);
  return reply.body.items.map((item: { party_id: string; reasons: string[] }) => [item.party_id, item.reasons]);
};

async function customer(prospect: Record<string, unknown>): Promise<string> {
  const reply = await pushLead(server, tenant, 'customers', {
    prospect: { first_name: 'Jan', last_name: 'Peeters', ...prospect },
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body.party_id;
}

describe('lead-intake party duplicate-keys', () => {
  it('keys the parties stored without keys, so they are found as duplicates again, and writes nothing a second time', async () => {
    const tag = randomUUID().slice(0, 8);
    const vin = `WVWZZZ1JZXW${String(Math.floor(Math.random() * 900000) + 100000)}`;
    const person = await customer({
      email: `jan.${tag}@example.be`,
      telephonenr: '0470 12 34 56',
      birth: '1971-03-02',
      risk_objects: { cars: [{ vin }] },
    });
    const byEmail = await customer({ first_name: 'J.', email: `JAN.${tag}@EXAMPLE.BE`, telephonenr: '+32 470 123456' });
    const byCar = await customer({ first_name: 'Other', last_name: tag, risk_objects: { cars: [{ vin }] } });
    const byName = await customer({ first_name: 'Peters', last_name: 'Jan', birth: '1971-03-02' });
    const nothing = await customer({ first_name: 'No', last_name: 'Keys' });
    const expected = [
      [byEmail, ['email', 'telephone']],
      [byCar, ['vin']],
      [byName, ['birth_and_name']],
    ];
    expect(await duplicatesOf(person)).toEqual(expected);

    // A database from before the keys: the parties are there, their keys are not.
    const parties = [person, byEmail, byCar, byName, nothing];
    await server.database.handle.db.deleteFrom('party_duplicate_keys').where('party_id', 'in', parties).execute();
    expect(await duplicatesOf(person)).toEqual([]);

    const report = await cliJson(server.database.env, ['party', 'duplicate-keys', '--batch', '2']);
    // Other tests' parties in this database may be keyless too: at least these five were read.
    expect(report.parties_read).toBeGreaterThanOrEqual(5);
    expect(report.parties_keyed).toBeGreaterThanOrEqual(4);
    expect(await duplicatesOf(person)).toEqual(expected);
    expect(await duplicatesOf(byCar)).toEqual([[person, ['vin']]]);

    // Only the party without any key is read again, and it still has none.
    const again = await cliJson(server.database.env, ['party', 'duplicate-keys']);
    expect(again.parties_keyed).toBe(0);
    expect(again.keys_written).toBe(0);
  });

  it('refuses a batch size it cannot use, writing nothing', async () => {
    await expect(cliJson(server.database.env, ['party', 'duplicate-keys', '--batch', '0'])).rejects.toThrow(/--batch/);
  });
});
