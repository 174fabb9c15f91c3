// Possible duplicates (docs/api.md, "Possible duplicates"): the same person sent by several
// partners with another e-mail case, another way of writing the telephone, a typo in the
// name, or a shared car or enterprise number is listed with its reasons, strongest first;
// keys follow the party as pushes and PATCHes change it; an erased party leaves the lists.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi } from './support/api-client.ts';
import { pushLead } from './support/lead-client.ts';
import { createTenant, startTestServer, type Tenant, type TestServer } from './support/test-server.ts';

let server: TestServer;
let tenant: Tenant;
let other: Tenant;
const SCOPES = ['leads:write', 'parties:read', 'parties:update', 'parties:erase'];

beforeAll(async () => {
  server = await startTestServer();
  tenant = await createTenant(server.database.handle, SCOPES);
  other = await createTenant(server.database.handle, SCOPES);
});
afterAll(() => server.close());

const vin = () => `WVWZZZ1JZXW${String(Math.floor(Math.random() * 900000) + 100000)}`;
const phone = () => `0470 ${String(Math.floor(Math.random() * 900000) + 100000)}`;
const duplicatesOf = (partyId: string, t: Tenant = tenant) =>
  callApi(server, t, 'GET', `/distributions/${t.distributionId}/parties/${partyId}/duplicates`);

async function customer(
  prospect: Record<string, unknown>,
  t: Tenant = tenant,
): Promise<{ partyId: string; leadId: string }> {
  const reply = await pushLead(server, t, 'customers', {
    prospect: { first_name: 'Jan', last_name: 'Peeters', ...prospect },
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return { partyId: reply.body.party_id, leadId: reply.body.id };
}

describe('GET …/parties/{party_id}/duplicates', () => {
  it('lists the parties sharing an e-mail in any case, a telephone however written, a VIN, or a birth date with a close name', async () => {
    const tag = randomUUID().slice(0, 8);
    const email = `jan.${tag}@example.be`;
    const number = phone();
    const car = vin();
    const person = await customer({
      email,
      telephonenr: number,
      birth: '1971-03-02',
      risk_objects: { cars: [{ vin: car }] },
    });
    // Another partner: the same e-mail in capitals and the telephone in international form.
    const byEmail = await customer({
      first_name: 'J.',
      email: email.toUpperCase(),
      telephonenr: `+32 ${number.slice(1)}`,
    });
    const byCar = await customer({ first_name: 'Other', last_name: tag, risk_objects: { cars: [{ vin: car }] } });
    // A typo and the names swapped, the same birth date.
    const byName = await customer({ first_name: 'Peters', last_name: 'Jan', birth: '1971-03-02' });
    // The same birth date with another name is no reason.
    await customer({ first_name: 'Marie', last_name: 'Janssens', birth: '1971-03-02' });
    // Another distribution's party never shows.
    await customer({ email }, other);

    const reply = await duplicatesOf(person.partyId);
    expect(reply.status).toBe(200);
    expect(reply.body.items).toEqual([
      { party_id: byEmail.partyId, lead_id: byEmail.leadId, reasons: ['email', 'telephone'], score: 70 },
      { party_id: byCar.partyId, lead_id: byCar.leadId, reasons: ['vin'], score: 30 },
      { party_id: byName.partyId, lead_id: byName.leadId, reasons: ['birth_and_name'], score: 20 },
    ]);
    // Each sees the person in turn.
    expect((await duplicatesOf(byCar.partyId)).body.items.map((item: { party_id: string }) => item.party_id)).toEqual([
      person.partyId,
    ]);
  });

  it('lists companies sharing an enterprise number however it is written', async () => {
    const first = await pushLead(server, tenant, 'companies', {
      prospect: { name: 'Acme NV', enterprise_nr: '0200.065.765' },
    });
    const second = await pushLead(server, tenant, 'companies', {
      prospect: { name: 'ACME', enterprise_nr: 'BE0200065765' },
    });
    expect([first.status, second.status]).toEqual([201, 201]);
    const items = (await duplicatesOf(first.body.party_id)).body.items;
    expect(items).toContainEqual({
      party_id: second.body.party_id,
      lead_id: second.body.id,
      reasons: ['enterprise_nr'],
      score: 40,
    });
  });

  it('follows the party as a push and a PATCH change its keys', async () => {
    const email = `${randomUUID()}@example.be`;
    const person = await customer({ email });
    const twin = await customer({ email: `${randomUUID()}@example.be` });
    expect((await duplicatesOf(person.partyId)).body.items).toEqual([]);

    // A later push of the twin gives it the person's e-mail.
    const merged = await pushLead(server, tenant, 'customers', {
      prospect: { id: twin.partyId, first_name: 'Jan', last_name: 'Peeters', email: email.toUpperCase() },
    });
    expect(merged.status).toBe(200);
    expect((await duplicatesOf(person.partyId)).body.items).toEqual([
      { party_id: twin.partyId, lead_id: twin.leadId, reasons: ['email'], score: 40 },
    ]);

    // A PATCH takes it away again.
    const path = `/distributions/${tenant.distributionId}/parties/${twin.partyId}`;
    const patched = await callApi(server, tenant, 'PATCH', path, { body: { email: 'someone.else@example.be' } });
    expect(patched.status).toBe(200);
    expect((await duplicatesOf(person.partyId)).body.items).toEqual([]);
  });

  // Issue 34: on PostgreSQL a merge deletes only the keys the party no longer has and upserts
  // its new set, in the statement of its new rows (WITH queries, which run in no set order).
  it('keeps exactly the keys of the party as pushed ten times, each push changing some and keeping the rest', async () => {
    const ref = randomUUID();
    const email = () => `${randomUUID()}@example.be`;
    const [a, b, c] = [email(), email(), email()];
    const [t1, t2, t3] = [phone(), phone(), phone()];
    const e164 = (text: string) => `+32${text.replace(/\D/g, '').slice(1)}`;
    const steps: Array<{ prospect: Record<string, unknown>; keys: Array<[string, string, string | null]> }> = [];
    const person = { first_name: 'Jan', last_name: 'Peeters', birth: '1971-03-02', email: a, telephonenr: t1 };
    const birth = (date: string, name: string, starts: string[]) =>
      starts.map((start): [string, string, string | null] => ['birth', `${date}|${start}`, name]);
    const step = (
      change: Record<string, unknown>,
      keys: (p: Record<string, unknown>) => Array<[string, string, string | null]>,
    ) => {
      Object.assign(person, change);
      steps.push({ prospect: { ...person }, keys: keys(person) });
    };
    const usual = (p: Record<string, unknown>, name = 'jan peeters', starts = ['ja', 'pe']) => [
      ...birth(p.birth as string, name, starts),
      ['email', p.email as string, null] as [string, string, null],
      ['telephone', e164(p.telephonenr as string), null] as [string, string, null],
    ];
    step({}, (p) => usual(p));
    step({ email: b.toUpperCase() }, (p) => usual({ ...p, email: b }));
    step({ telephonenr: t2 }, (p) => usual({ ...p, email: b }));
    // The same name starts, another name beside them.
    step({ last_name: 'Peters' }, (p) => usual({ ...p, email: b }, 'jan peters'));
    step({ birth: '1971-03-12' }, (p) => usual({ ...p, email: b }, 'jan peters'));
    step({}, (p) => usual({ ...p, email: b }, 'jan peters'));
    // The same number written another way: the same key.
    step({ telephonenr: `+32 ${t2.slice(1)}` }, (p) => usual({ ...p, email: b, telephonenr: t2 }, 'jan peters'));
    step({ first_name: 'Yan' }, (p) => usual({ ...p, email: b, telephonenr: t2 }, 'yan peters', ['pe', 'ya']));
    step({ email: c, telephonenr: t3 }, (p) => usual(p, 'yan peters', ['pe', 'ya']));
    step({ birth: '1971-03-02', first_name: 'Jan', last_name: 'Peeters' }, (p) => usual(p));

    let partyId: string | undefined;
    for (const [i, { prospect, keys }] of steps.entries()) {
      const reply = await pushLead(server, tenant, 'customers', {
        prospect: { ...prospect, external_refs: [{ external_ref: ref, external_ref_company: 'CRM' }] },
      });
      expect(reply.status, `push ${i + 1}: ${JSON.stringify(reply.body)}`).toBe(i === 0 ? 201 : 200);
      partyId ??= reply.body.party_id;
      expect(reply.body.party_id).toBe(partyId);
      const stored = await server.database.handle.db
        .selectFrom('party_duplicate_keys')
        .select(['kind', 'key', 'name'])
        .where('party_id', '=', partyId!)
        .execute();
      const sorted = (rows: Array<[string, string, string | null]>) => rows.map((row) => row.join('|')).sort();
      expect(sorted(stored.map((row) => [row.kind, row.key, row.name])), `push ${i + 1}`).toEqual(sorted(keys));
    }
  });

  it('no longer lists an erased party, answers 410 for it, and 404 for an unknown or foreign one', async () => {
    const email = `${randomUUID()}@example.be`;
    const person = await customer({ email });
    const twin = await customer({ email });
    expect((await duplicatesOf(person.partyId)).body.items).toHaveLength(1);

    const erased = await callApi(
      server,
      tenant,
      'DELETE',
      `/distributions/${tenant.distributionId}/parties/${twin.partyId}`,
    );
    expect(erased.status).toBe(200);
    expect(erased.body.counts.duplicate_keys).toBe(1);
    expect((await duplicatesOf(person.partyId)).body.items).toEqual([]);
    expect((await duplicatesOf(twin.partyId)).status).toBe(410);
    expect((await duplicatesOf(randomUUID())).status).toBe(404);
    expect((await duplicatesOf(person.partyId, other)).status).toBe(404);
  });

  it('needs parties:read', async () => {
    const writer = await createTenant(server.database.handle, ['leads:write']);
    const person = await customer({}, writer);
    const reply = await callApi(
      server,
      writer,
      'GET',
      `/distributions/${writer.distributionId}/parties/${person.partyId}/duplicates`,
    );
    expect(reply.status).toBe(403);
  });
});
