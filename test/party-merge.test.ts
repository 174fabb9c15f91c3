// Merging two parties (docs/api.md, "Merging two parties"): one transaction joins everything
// of the merged party into the survivor; the merged party and lead answer 410 Merged; its
// ref and id reach the survivor; refusals write nothing; erasing the survivor leaves
// nothing of either.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi } from './support/api-client.ts';
import { cliJson, runCli } from './support/cli.ts';
import { countRows, pushLead } from './support/lead-client.ts';
import { pushRichPerson, tablesContaining } from './support/personal-data.ts';
import { createTenant, startTestServer, type Tenant, type TestServer } from './support/test-server.ts';

let server: TestServer;
let tenant: Tenant;
let other: Tenant;
const SCOPES = ['leads:write', 'leads:read', 'parties:read', 'parties:update', 'parties:erase'];

beforeAll(async () => {
  server = await startTestServer();
  tenant = await createTenant(server.database.handle, SCOPES);
  other = await createTenant(server.database.handle, SCOPES);
});
afterAll(() => server.close());

const d = (t: Tenant = tenant) => `/distributions/${t.distributionId}`;
const merge = (into: string, from: unknown, headers: Record<string, string> = {}, t: Tenant = tenant) =>
  callApi(server, t, 'POST', `${d(t)}/parties/${into}/merge`, { body: { from }, headers });
const vin = () => `WVWZZZ1JZXW${String(Math.floor(Math.random() * 900000) + 100000)}`;

async function customer(prospect: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const reply = await pushLead(server, tenant, 'customers', {
    ...extra,
    prospect: { first_name: 'Jan', last_name: 'Peeters', ...prospect },
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return { partyId: reply.body.party_id as string, leadId: reply.body.id as string };
}

describe('POST …/parties/{party_id}/merge', () => {
  it('joins refs, callbacks, cars one per VIN, policies and the push log into the survivor, whose values win', async () => {
    const shared = vin();
    const own = vin();
    const survivor = await customer(
      {
        email: `${randomUUID()}@example.be`,
        external_refs: [{ external_ref: `a-${randomUUID()}`, external_ref_company: 'crm' }],
        callbacks: ['http://127.0.0.1:9/a'],
        risk_objects: { cars: [{ vin: shared, brand: 'Volvo' }] },
      },
      { origin: 'web' },
    );
    const mergedRef = `b-${randomUUID()}`;
    const merged = await customer(
      {
        first_name: 'Johannes',
        telephonenr: '+32 470 11 22 33',
        external_refs: [{ external_ref: mergedRef, external_ref_company: 'crm' }],
        callbacks: ['http://127.0.0.1:9/b'],
        risk_objects: {
          cars: [
            { vin: shared, brand: 'Volvo XC' },
            { vin: own, brand: 'Audi' },
          ],
        },
        insurance_policies: [{ insurance_company: 'AG', policy_nr: `P-${randomUUID()}` }],
      },
      { origin: 'quote-tool', source: 'partner' },
    );

    const reply = await merge(survivor.partyId, merged.partyId);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const mergedInto = { party_id: survivor.partyId, lead_id: survivor.leadId };
    const read = await callApi(server, tenant, 'GET', `${d()}/parties/${survivor.partyId}`);
    expect(reply.body).toEqual(read.body);
    expect(reply.headers.get('etag')).toBe(read.headers.get('etag'));
    const prospect = read.body;
    // The survivor's first name wins; the merged party's telephone fills the empty field.
    expect(prospect.first_name).toBe('Jan');
    expect(prospect.telephonenr).toBe('+32 470 11 22 33');
    expect(prospect.external_refs.map((r: { ref: string }) => r.ref)).toContain(mergedRef);
    expect(prospect.callbacks.sort()).toEqual(['http://127.0.0.1:9/a', 'http://127.0.0.1:9/b']);
    expect(read.body.risk_objects.cars.map((c: { vin: string }) => c.vin).sort()).toEqual([shared, own].sort());
    expect(read.body.insurance_policies).toHaveLength(1);

    const lead = await callApi(server, tenant, 'GET', `${d()}/leads/${survivor.leadId}`);
    expect(lead.body.origin).toBe('web');
    expect(lead.body.source).toBe('partner');
    const pushes = await callApi(server, tenant, 'GET', `${d()}/leads/${survivor.leadId}/pushes`);
    expect(pushes.body.items).toHaveLength(2);

    // The merged party and its lead are gone, pointing at the survivor.
    for (const path of [`${d()}/parties/${merged.partyId}`, `${d()}/leads/${merged.leadId}`]) {
      const gone = await callApi(server, tenant, 'GET', path);
      expect(gone.status, path).toBe(410);
      expect(gone.body.detail.type).toBe('Merged');
      expect(gone.body.detail.merged_into).toEqual(mergedInto);
    }

    // The change listing shows the merged lead once, pointing at the survivor.
    const listed: Array<Record<string, unknown>> = [];
    let next: string | null = `${d()}/leads?updated_since=2000-01-01T00:00:00Z&limit=100`;
    while (next) {
      const page = await callApi(server, tenant, 'GET', next.replace(/^.*\/v1\/api/, ''));
      expect(page.status).toBe(200);
      listed.push(...page.body.items);
      next = page.body.next;
    }
    const entries = listed.filter((item) => item.id === merged.leadId);
    expect(entries).toEqual([
      { id: merged.leadId, party_id: merged.partyId, merged_into: mergedInto, updated_at: expect.any(String) },
    ]);

    // A push with the merged party's ref, or its id, updates the survivor.
    const byRef = await pushLead(server, tenant, 'customers', {
      prospect: {
        first_name: 'Jan',
        last_name: 'Peeters',
        language: 'nl',
        external_refs: [{ external_ref: mergedRef, external_ref_company: 'crm' }],
      },
    });
    expect(byRef.status).toBe(200);
    expect(byRef.body.party_id).toBe(survivor.partyId);
    const byId = await pushLead(server, tenant, 'customers', {
      prospect: { id: merged.partyId, first_name: 'Jan', last_name: 'Peeters', gender: 'MALE' },
    });
    expect(byId.status, JSON.stringify(byId.body)).toBe(200);
    expect(byId.body.party_id).toBe(survivor.partyId);
    expect(byId.body.prospect.language).toBe('nl');

    // The same merge again (a retry) answers the survivor; a merge of the merged party is 410.
    expect((await merge(survivor.partyId, merged.partyId)).status).toBe(200);
    const again = await merge(merged.partyId, survivor.partyId);
    expect(again.status).toBe(410);
    expect(again.body.detail.merged_into).toEqual(mergedInto);
  });

  it('refuses, writing nothing: itself, another kind, an unknown party, another distribution, a stale If-Match', async () => {
    const a = await customer({ email: `${randomUUID()}@example.be` });
    const b = await customer({ email: `${randomUUID()}@example.be` });
    const company = await pushLead(server, tenant, 'companies', { prospect: { name: 'Acme NV' } });
    const before = await countRows(server);

    expect((await merge(a.partyId, a.partyId)).body.detail.errors[0].target).toBe('from');
    expect((await merge(a.partyId, a.partyId)).status).toBe(422);
    expect((await merge(a.partyId, company.body.party_id)).status).toBe(422);
    expect((await merge(a.partyId, randomUUID())).status).toBe(422);
    expect((await merge(a.partyId, 'not an id')).status).toBe(422);
    expect((await merge(randomUUID(), b.partyId)).status).toBe(404);
    expect((await merge(a.partyId, b.partyId, {}, other)).status).toBe(404);
    const stale = await merge(a.partyId, b.partyId, { 'if-match': '"stale"' });
    expect(stale.status).toBe(412);
    expect(await countRows(server)).toEqual(before);

    const read = await callApi(server, tenant, 'GET', `${d()}/parties/${a.partyId}`);
    const fresh = await merge(a.partyId, b.partyId, { 'if-match': read.headers.get('etag')! });
    expect(fresh.status).toBe(200);
  });

  it('keeps one policy per insurance company and number, and one home per address: nothing twice, nothing lost', async () => {
    const number = `P-${randomUUID()}`;
    const home = { street: 'Kerkstraat', housenr: '12', zipcode: '2000', city: 'Antwerpen' };
    const homeId = randomUUID();
    const packageId = randomUUID();
    const survivor = await customer({
      email: `${randomUUID()}@example.be`,
      risk_objects: { residences: [{ address: home, rooms: 3 }] },
      insurance_policies: [
        {
          insurance_company: 'AG',
          policy_nr: number,
          premium: '499.95',
          external_refs: [{ ref: `a-${number}` }],
          coverages: [{ name: 'BA' }],
        },
      ],
    });
    const merged = await customer({
      risk_objects: { residences: [{ id: homeId, address: { ...home, street: ' kerkstraat', city: 'ANTWERPEN' } }] },
      policy_packages: [{ id: packageId, name: 'Gezin' }],
      insurance_policies: [
        {
          insurance_company: 'AG',
          policy_nr: number,
          policy_package_id: packageId,
          premium: '510.00',
          name: 'Woning',
          external_refs: [{ ref: `b-${number}` }],
          coverages: [{ name: 'BA' }, { name: 'Brand', risk_object_id: homeId }],
        },
      ],
    });
    const before = await countRows(server);
    const reply = await merge(survivor.partyId, merged.partyId);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);

    const [home0, ...otherHomes] = reply.body.risk_objects.residences;
    expect(otherHomes, 'one home per address').toEqual([]);
    expect(home0.rooms).toBe(3);
    const policies = reply.body.insurance_policies;
    expect(policies, 'one policy per insurance company and number').toHaveLength(1);
    // The survivor's premium wins; the merged policy's name fills its empty field, and its
    // package, refs and the coverage the survivor lacked (on the survivor's home) join it.
    expect(policies[0]).toMatchObject({ premium: '499.95', name: 'Woning', policy_nr: number });
    expect(policies[0].policy_package_id).toBe(packageId);
    expect(policies[0].external_refs.map((r: { ref: string }) => r.ref)).toEqual([`a-${number}`, `b-${number}`]);
    expect(
      policies[0].coverages.map((c: { name: string; risk_object_id?: string }) => [c.name, c.risk_object_id]),
    ).toEqual([
      ['BA', undefined],
      ['Brand', home0.risk_object_id],
    ]);
    // The merged party's home stays stored as removed, with its revision; its policy is one row less.
    const after = await countRows(server);
    expect(after.risk_objects).toBe(before.risk_objects);
    expect(after.insurance_policies).toBe(before.insurance_policies! - 1);
    const read = await callApi(server, tenant, 'GET', `${d()}/parties/${survivor.partyId}`);
    expect(read.body).toEqual(reply.body);

    // A re-sync of either party's policy, by number or by its ref, lands on the one policy.
    const resync = await pushLead(server, tenant, 'customers', {
      prospect: {
        id: merged.partyId,
        first_name: 'Jan',
        last_name: 'Peeters',
        insurance_policies: [{ external_refs: [{ ref: `b-${number}` }], premium: '520.00' }],
      },
    });
    expect(resync.status, JSON.stringify(resync.body)).toBe(200);
    expect(resync.body.insurance_policies).toHaveLength(1);
    expect(resync.body.insurance_policies[0].premium).toBe('520.00');
  });

  it("lands a re-sync of the merged party's partner, naming its own car and home ids, on the survivor's", async () => {
    const shared = vin();
    const home = { street: 'Veldstraat', housenr: '1', zipcode: '9000', city: 'Gent' };
    const [ownCar, ownHome, theirCar, theirHome] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const survivor = await customer({
      email: `${randomUUID()}@example.be`,
      risk_objects: { cars: [{ id: ownCar, vin: shared, kw: 50 }], residences: [{ id: ownHome, address: home }] },
    });
    const theirRef = `b-${randomUUID()}`;
    const sync = (kw: number) => ({
      prospect: {
        first_name: 'Jan',
        last_name: 'Peeters',
        external_refs: [{ external_ref: theirRef, external_ref_company: 'crm' }],
        risk_objects: {
          cars: [{ id: theirCar, vin: shared, kw }],
          residences: [{ id: theirHome, address: home, rooms: 4 }],
        },
        insurance_policies: [
          {
            insurance_company: 'AG',
            policy_nr: `P-${theirRef}`,
            coverages: [
              { name: 'BA', risk_object_id: theirCar },
              { name: 'Brand', risk_object_id: theirHome },
            ],
          },
        ],
      },
    });
    const merged = await pushLead(server, tenant, 'customers', sync(60));
    expect(merged.status, JSON.stringify(merged.body)).toBe(201);
    expect((await merge(survivor.partyId, merged.body.party_id)).status).toBe(200);

    const resync = await pushLead(server, tenant, 'customers', sync(70));
    expect(resync.status, JSON.stringify(resync.body)).toBe(200);
    expect(resync.body.party_id).toBe(survivor.partyId);
    const { cars, residences } = resync.body.risk_object_revisions;
    expect(cars.map((car: { risk_object_id: string; kw: number }) => [car.risk_object_id, car.kw])).toEqual([
      [ownCar, 70],
    ]);
    expect(residences.map((r: { risk_object_id: string; rooms: number }) => [r.risk_object_id, r.rooms])).toEqual([
      [ownHome, 4],
    ]);
    const [policy] = resync.body.insurance_policies;
    expect(policy.coverages.map((c: { risk_object_id: string }) => c.risk_object_id)).toEqual([ownCar, ownHome]);
  });

  it("follows a car through two merges: the first partner's car id reaches the last survivor's car", async () => {
    const shared = vin();
    const [firstCar, secondCar, lastCar] = [randomUUID(), randomUUID(), randomUUID()];
    const firstRef = `chain-${randomUUID()}`;
    const car = (id: string, kw: number) => ({ risk_objects: { cars: [{ id, vin: shared, kw }] } });
    const first = await customer({
      external_refs: [{ external_ref: firstRef, external_ref_company: 'crm' }],
      ...car(firstCar, 50),
    });
    const second = await customer({ email: `${randomUUID()}@example.be`, ...car(secondCar, 60) });
    const last = await customer({ email: `${randomUUID()}@example.be`, ...car(lastCar, 70) });
    expect((await merge(second.partyId, first.partyId)).status).toBe(200);
    expect((await merge(last.partyId, second.partyId)).status).toBe(200);

    // The first partner syncs again, naming its own car: it lands on the last survivor's.
    const resync = await pushLead(server, tenant, 'customers', {
      prospect: {
        first_name: 'Jan',
        last_name: 'Peeters',
        external_refs: [{ external_ref: firstRef, external_ref_company: 'crm' }],
        ...car(firstCar, 80),
      },
    });
    expect(resync.status, JSON.stringify(resync.body)).toBe(200);
    expect(resync.body.party_id).toBe(last.partyId);
    expect(
      resync.body.risk_object_revisions.cars.map((c: { risk_object_id: string; kw: number }) => [
        c.risk_object_id,
        c.kw,
      ]),
    ).toEqual([[lastCar, 80]]);
    const replaced = await server.database.handle.db
      .selectFrom('risk_objects')
      .select(['id', 'replaced_by'])
      .where('id', 'in', [firstCar, secondCar])
      .orderBy('id')
      .execute();
    expect(replaced).toEqual([firstCar, secondCar].sort().map((id) => ({ id, replaced_by: lastCar })));
  });

  it("lands a coverage naming the merged party's given-up car, without the car in the push, on the survivor's car", async () => {
    const shared = vin();
    const [ownCar, theirCar] = [randomUUID(), randomUUID()];
    const theirRef = `cov-${randomUUID()}`;
    const survivor = await customer({
      email: `${randomUUID()}@example.be`,
      risk_objects: { cars: [{ id: ownCar, vin: shared }] },
    });
    const merged = await customer({
      external_refs: [{ external_ref: theirRef, external_ref_company: 'crm' }],
      risk_objects: { cars: [{ id: theirCar, vin: shared }] },
    });
    expect((await merge(survivor.partyId, merged.partyId)).status).toBe(200);

    // The merged party's partner adds a policy covering its own car, the car itself not sent.
    const policy = await pushLead(server, tenant, 'customers', {
      prospect: {
        first_name: 'Jan',
        last_name: 'Peeters',
        external_refs: [{ external_ref: theirRef, external_ref_company: 'crm' }],
        insurance_policies: [
          {
            insurance_company: 'AG',
            policy_nr: `P-${theirRef}`,
            coverages: [{ name: 'BA', risk_object_id: theirCar }],
          },
        ],
      },
    });
    expect(policy.status, JSON.stringify(policy.body)).toBe(200);
    expect(policy.body.party_id).toBe(survivor.partyId);
    const [stored] = policy.body.insurance_policies;
    expect(stored.coverages.map((c: { risk_object_id: string }) => c.risk_object_id)).toEqual([ownCar]);
  });

  it('keeps one package per insurance company and number: a re-sync of either partner lands on it, by number or id', async () => {
    const number = `K-${randomUUID()}`;
    const [ownPackage, theirPackage, laterPackage] = [randomUUID(), randomUUID(), randomUUID()];
    const [ownRef, theirRef] = [`a-${randomUUID()}`, `b-${randomUUID()}`];
    const [ownPolicy, theirPolicy] = [`P-${randomUUID()}`, `P-${randomUUID()}`];
    const refOf = (ref: string) => [{ external_ref: ref, external_ref_company: 'crm' }];
    const sync = (ref: string, extra: Record<string, unknown>) =>
      pushLead(server, tenant, 'customers', {
        prospect: { first_name: 'Jan', last_name: 'Peeters', external_refs: refOf(ref), ...extra },
      });
    const survivor = await customer({
      email: `${randomUUID()}@example.be`,
      external_refs: refOf(ownRef),
      policy_packages: [{ id: ownPackage, insurance_company: 'AG', package_nr: number, name: 'Gezin' }],
      insurance_policies: [{ insurance_company: 'AG', policy_nr: ownPolicy, policy_package_id: ownPackage }],
    });
    const merged = await customer({
      external_refs: refOf(theirRef),
      policy_packages: [
        { id: theirPackage, insurance_company: 'AG', package_nr: number, name: 'Familie', premium: '100.00' },
      ],
      insurance_policies: [{ insurance_company: 'AG', policy_nr: theirPolicy, policy_package_id: theirPackage }],
    });
    const reply = await merge(survivor.partyId, merged.partyId);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    // One package: the survivor's values win, the merged one's fill its empty fields; every policy in it.
    expect(reply.body.policy_packages).toEqual([
      { id: ownPackage, insurance_company: 'AG', package_nr: number, name: 'Gezin', premium: '100.00' },
    ]);
    const inPackage = (body: { insurance_policies: Array<{ policy_nr: string; policy_package_id: string }> }) =>
      body.insurance_policies.map((policy) => [policy.policy_nr, policy.policy_package_id]);
    expect(inPackage(reply.body)).toEqual([
      [ownPolicy, ownPackage],
      [theirPolicy, ownPackage],
    ]);

    // Each partner re-syncs the package as it knows it: by its own id, by number only, or a
    // policy naming the package's id alone. Every push lands on the one package.
    const pushes = [
      await sync(ownRef, {
        policy_packages: [{ id: ownPackage, insurance_company: 'AG', package_nr: number, payment_interval: 'ANNUAL' }],
        insurance_policies: [{ insurance_company: 'AG', policy_nr: ownPolicy, policy_package_id: ownPackage }],
      }),
      await sync(theirRef, {
        policy_packages: [{ id: theirPackage, insurance_company: 'AG', package_nr: number, premium: '110.00' }],
        insurance_policies: [{ insurance_company: 'AG', policy_nr: theirPolicy, policy_package_id: theirPackage }],
      }),
      await sync(theirRef, { policy_packages: [{ insurance_company: 'AG', package_nr: number, name: 'Familie' }] }),
      await sync(theirRef, {
        insurance_policies: [
          { insurance_company: 'AG', policy_nr: `P-${theirRef}`, premium: '5.00', policy_package_id: theirPackage },
        ],
      }),
    ];
    for (const pushed of pushes) {
      expect(pushed.status, JSON.stringify(pushed.body)).toBe(200);
      expect(pushed.body.party_id).toBe(survivor.partyId);
      expect(pushed.body.policy_packages.map((pkg: { id: string }) => pkg.id)).toEqual([ownPackage]);
    }
    const read = await callApi(server, tenant, 'GET', `${d()}/parties/${survivor.partyId}`);
    expect(read.body.policy_packages).toEqual([
      {
        id: ownPackage,
        insurance_company: 'AG',
        package_nr: number,
        name: 'Familie',
        premium: '110.00',
        payment_interval: 'ANNUAL',
      },
    ]);
    expect(inPackage(read.body)).toEqual([
      [ownPolicy, ownPackage],
      [theirPolicy, ownPackage],
      [`P-${theirRef}`, ownPackage],
    ]);

    // The history says which package became which; the push log holds every push of both.
    const exported = await callApi(server, tenant, 'GET', `${d()}/parties/${survivor.partyId}/export`);
    const changes = exported.body.records.changes.flatMap((row: { changes: unknown }) =>
      typeof row.changes === 'string' ? JSON.parse(row.changes) : row.changes,
    );
    expect(changes).toContainEqual({
      field: 'policy_package',
      before: { id: theirPackage },
      after: { id: ownPackage },
    });
    expect(exported.body.records.push_log).toHaveLength(6);

    // The joined package's id stays the survivor's: another person cannot take it.
    const elsewhere = await customer({ email: `${randomUUID()}@example.be` });
    const taken = await pushLead(server, tenant, 'customers', {
      prospect: {
        id: elsewhere.partyId,
        first_name: 'Jan',
        last_name: 'Peeters',
        policy_packages: [{ id: theirPackage }],
      },
    });
    expect(taken.status, JSON.stringify(taken.body)).toBe(409);

    // Merged on into a third party with that package too: both ids name its package (a chain).
    const third = await customer({
      email: `${randomUUID()}@example.be`,
      policy_packages: [{ id: laterPackage, insurance_company: 'AG', package_nr: number }],
    });
    expect((await merge(third.partyId, survivor.partyId)).status).toBe(200);
    for (const id of [ownPackage, theirPackage]) {
      const again = await sync(theirRef, { policy_packages: [{ id, name: `via ${id}` }] });
      expect(again.status, JSON.stringify(again.body)).toBe(200);
      expect(again.body.party_id).toBe(third.partyId);
      expect(again.body.policy_packages.map((pkg: { id: string; name: string }) => [pkg.id, pkg.name])).toEqual([
        [laterPackage, `via ${id}`],
      ]);
      expect(
        again.body.insurance_policies.every((p: { policy_package_id: string }) => p.policy_package_id === laterPackage),
      ).toBe(true);
    }
  });

  it("refuses a merge that would give the survivor a third party's e-mail, birth date and address", async () => {
    const email = `${randomUUID()}@example.be`;
    const birth = '1980-02-03';
    const address = { street: 'Lange Lozanastraat', housenr: '7', zipcode: '2018', city: 'Antwerpen' };
    const [ownRef, theirRef] = [`a-${randomUUID()}`, `b-${randomUUID()}`];
    const refOf = (ref: string) => [{ external_ref: ref, external_ref_company: 'crm' }];
    // The survivor lacks an address, the merged party has one: joined, they are the third party's person.
    const survivor = await customer({ email, birth, external_refs: refOf(ownRef) });
    const merged = await customer({ first_name: 'Johannes', address, external_refs: refOf(theirRef) });
    const third = await customer({ email: email.toUpperCase(), birth, address });

    const before = await countRows(server);
    const refused = await merge(survivor.partyId, merged.partyId);
    expect(refused.status, JSON.stringify(refused.body)).toBe(409);
    expect(refused.body.detail.type).toBe('Conflict');
    expect(refused.body.detail.errors).toEqual([
      expect.objectContaining({ target: 'from', message: expect.stringContaining(third.partyId) }),
    ]);
    expect(await countRows(server)).toEqual(before);
    const cli = await runCli(server.database.env, [
      'party',
      'merge',
      '--distribution',
      tenant.distributionId,
      '--party',
      survivor.partyId,
      '--from',
      merged.partyId,
    ]);
    expect(cli.code).toBe(1);
    expect(cli.stderr).toContain(`birth date and address of party ${third.partyId}`);

    // Nothing changed: each push lands where it did, every time.
    const byData = { first_name: 'Jan', last_name: 'Peeters', email, birth, address };
    for (const prospect of [
      { ...byData },
      { ...byData },
      { first_name: 'Jan', last_name: 'Peeters', language: 'nl', external_refs: refOf(ownRef) },
      { first_name: 'Jan', last_name: 'Peeters', language: 'fr', external_refs: refOf(ownRef) },
    ]) {
      const pushed = await pushLead(server, tenant, 'customers', { prospect });
      expect(pushed.status, JSON.stringify(pushed.body)).toBe(200);
      expect(pushed.body.party_id).toBe('external_refs' in prospect ? survivor.partyId : third.partyId);
    }

    // Joining the third party first, then the other, makes one person whom every push reaches.
    expect((await merge(survivor.partyId, third.partyId)).status).toBe(200);
    const joined = await merge(survivor.partyId, merged.partyId);
    expect(joined.status, JSON.stringify(joined.body)).toBe(200);
    for (const prospect of [
      { ...byData },
      { ...byData, language: 'de' },
      { first_name: 'Jan', last_name: 'Peeters', gender: 'MALE', external_refs: refOf(ownRef) },
      { first_name: 'Jan', last_name: 'Peeters', external_refs: refOf(theirRef) },
    ]) {
      const pushed = await pushLead(server, tenant, 'customers', { prospect });
      expect(pushed.status, JSON.stringify(pushed.body)).toBe(200);
      expect(pushed.body.party_id).toBe(survivor.partyId);
    }
    const patched = await callApi(server, tenant, 'PATCH', `${d()}/parties/${survivor.partyId}`, {
      body: { telephonenr: '+32 470 12 34 56' },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
  });

  it("lets the survivor take the merged party's own e-mail, birth date and address", async () => {
    const email = `${randomUUID()}@example.be`;
    const address = { street: 'Meir', housenr: '1', zipcode: '2000', city: 'Antwerpen' };
    const survivor = await customer({ email });
    const merged = await customer({ email, birth: '1975-06-07', address });
    expect((await merge(survivor.partyId, merged.partyId)).status).toBe(200);
    const pushed = await pushLead(server, tenant, 'customers', {
      prospect: { first_name: 'Jan', last_name: 'Peeters', email, birth: '1975-06-07', address, language: 'nl' },
    });
    expect(pushed.status, JSON.stringify(pushed.body)).toBe(200);
    expect(pushed.body.party_id).toBe(survivor.partyId);
  });

  it('records who merged in the history, and erasing the survivor leaves nothing of either person', async () => {
    const kept = await pushRichPerson(server, tenant);
    const gone = await pushRichPerson(server, tenant);
    const reply = await merge(kept.partyId, gone.partyId);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.risk_objects.cars).toHaveLength(2);
    expect(reply.body.insurance_policies).toHaveLength(2);

    const exported = await callApi(server, tenant, 'GET', `${d()}/parties/${kept.partyId}/export`);
    expect(exported.status).toBe(200);
    expect(exported.body.records.push_log).toHaveLength(4);
    expect(exported.body.records.notes).toHaveLength(2);
    const changes = exported.body.records.changes.map((row: { changes: unknown }) =>
      typeof row.changes === 'string' ? JSON.parse(row.changes) : row.changes,
    );
    expect(changes.some((list: Array<{ field: string }>) => list.some((c) => c.field === 'merged_party'))).toBe(true);

    const erased = await callApi(server, tenant, 'DELETE', `${d()}/parties/${kept.partyId}`);
    expect(erased.status).toBe(200);
    expect(await tablesContaining(server.database.handle, kept.marker)).toEqual([]);
    expect(await tablesContaining(server.database.handle, gone.marker)).toEqual([]);
    // A re-sync with the merged party's ref meets the tombstone.
    const resync = await pushLead(server, tenant, 'customers', {
      prospect: {
        first_name: 'Again',
        last_name: 'Again',
        external_refs: [{ external_ref: gone.ref, external_ref_company: 'crm' }],
      },
    });
    expect(resync.status).toBe(409);
    expect(resync.body.detail.type).toBe('Erased');
  });

  it('merges with `lead-intake party merge`, and says why it refuses', async () => {
    const email = `${randomUUID()}@example.be`;
    const a = await customer({ email, telephonenr: '0470 55 66 77' });
    const b = await customer({ first_name: 'Jean', email: email.toUpperCase() });
    const env = server.database.env;
    const args = (from: string) => [
      'party',
      'merge',
      '--distribution',
      tenant.distributionId,
      '--party',
      a.partyId,
      '--from',
      from,
    ];
    const survivor = await cliJson(env, args(b.partyId));
    expect(survivor.lead_id).toBe(a.leadId);
    expect(survivor.first_name).toBe('Jan');
    expect((await callApi(server, tenant, 'GET', `${d()}/parties/${b.partyId}`)).status).toBe(410);
    // Nothing is listed as a possible duplicate any more: they are one.
    expect((await callApi(server, tenant, 'GET', `${d()}/parties/${a.partyId}/duplicates`)).body.items).toEqual([]);

    const company = await pushLead(server, tenant, 'companies', { prospect: { name: 'Acme NV' } });
    const refused = await runCli(env, args(company.body.party_id));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('a customer and a company cannot be merged');
  });
});
