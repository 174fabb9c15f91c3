// Matching and merge: docs/design.md section 2, rules 1 to 9.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createTenant, startTestServer, type Tenant, type TestServer } from './support/test-server.ts';
import { countRows, pushLead } from './support/lead-client.ts';

let server: TestServer;
let tenant: Tenant;
let otherTenant: Tenant;

beforeAll(async () => {
  server = await startTestServer();
  tenant = await createTenant(server.database.handle);
  otherTenant = await createTenant(server.database.handle);
});
afterAll(() => server.close());

const unique = () => randomUUID().slice(0, 8);
const customer = (prospect: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  ...extra,
  prospect: { first_name: 'Els', last_name: 'Janssens', ...prospect },
});
const address = { street: 'Kerkstraat', housenr: '12', zipcode: '2000', city: 'Antwerpen' };

describe('matching (rule 1)', () => {
  it('matches on prospect.id', async () => {
    const first = await pushLead(server, tenant, 'customers', customer({}));
    const second = await pushLead(
      server,
      tenant,
      'customers',
      customer({ id: first.body.party_id, telephonenr: '+32 3 111 22 33' }),
    );
    expect(second.status).toBe(200);
    expect(second.body.id).toBe(first.body.id);
    expect(second.body.prospect.telephonenr).toBe('+32 3 111 22 33');
  });

  it('matches on any of the external refs, array form or the older single-object form', async () => {
    const ref = unique();
    const first = await pushLead(
      server,
      tenant,
      'customers',
      customer({ external_refs: [{ external_ref: ref, external_ref_company: 'crm' }] }),
    );
    const bySingle = await pushLead(
      server,
      tenant,
      'customers',
      customer({ external_ref: { external_ref: ref, external_ref_company: 'crm' } }),
    );
    const byOneOfMany = await pushLead(
      server,
      tenant,
      'customers',
      customer({
        external_refs: [{ external_ref: `new-${ref}` }, { external_ref: ref, external_ref_company: 'crm' }],
      }),
    );
    expect([first.status, bySingle.status, byOneOfMany.status]).toEqual([201, 200, 200]);
    expect(new Set([first.body.id, bySingle.body.id, byOneOfMany.body.id]).size).toBe(1);
    // Refs are added, never removed (rule 6); the same ref without a company is another ref.
    expect(byOneOfMany.body.prospect.external_refs).toEqual([
      { ref, company: 'crm' },
      { ref: `new-${ref}`, company: null },
    ]);
  });

  it('matches a customer on email (any case) + birth + address (normalised)', async () => {
    const email = `${unique()}@example.be`;
    const first = await pushLead(server, tenant, 'customers', customer({ email, birth: '1990-01-02', address }));
    const second = await pushLead(
      server,
      tenant,
      'customers',
      customer({
        email: email.toUpperCase(),
        birth: '1990-01-02',
        address: { street: ' kerkstraat ', housenr: '12', zipcode: '2000', city: 'ANTWERPEN', country_code: 'BE' },
      }),
    );
    expect(second.status).toBe(200);
    expect(second.body.id).toBe(first.body.id);
    const otherBirth = await pushLead(server, tenant, 'customers', customer({ email, birth: '1990-01-03', address }));
    expect(otherBirth.status).toBe(201);
  });

  it('never matches across distributions', async () => {
    const ref = unique();
    const mine = await pushLead(server, tenant, 'customers', customer({ external_refs: [{ external_ref: ref }] }));
    const theirs = await pushLead(
      server,
      otherTenant,
      'customers',
      customer({ external_refs: [{ external_ref: ref }] }),
    );
    expect([mine.status, theirs.status]).toEqual([201, 201]);
    expect(theirs.body.id).not.toBe(mine.body.id);
  });
});

describe('refusals (rules 4 and 5)', () => {
  it('answers 409 when the rules hit two different parties, and writes nothing', async () => {
    const a = await pushLead(
      server,
      tenant,
      'customers',
      customer({ external_refs: [{ external_ref: `a-${unique()}` }] }),
    );
    const b = await pushLead(
      server,
      tenant,
      'customers',
      customer({ external_refs: [{ external_ref: `b-${unique()}` }] }),
    );
    const before = await countRows(server);
    const reply = await pushLead(
      server,
      tenant,
      'customers',
      customer({
        id: a.body.party_id,
        external_refs: [{ external_ref: b.body.prospect.external_refs[0].ref }],
      }),
    );
    expect(reply.status).toBe(409);
    expect(reply.body.detail.type).toBe('Conflict');
    expect(reply.body.detail.errors.map((e: any) => e.target).sort()).toEqual([
      'prospect.external_refs.0',
      'prospect.id',
    ]);
    expect(await countRows(server)).toEqual(before);
  });

  it('answers 422 on prospect.id when it names no party of this distribution', async () => {
    const elsewhere = await pushLead(server, otherTenant, 'customers', customer({}));
    for (const id of [randomUUID(), elsewhere.body.party_id]) {
      const reply = await pushLead(server, tenant, 'customers', customer({ id }));
      expect(reply.status).toBe(422);
      expect(reply.body.detail.errors).toEqual([
        expect.objectContaining({ type: 'ValidationError', target: 'prospect.id' }),
      ]);
    }
  });

  it('answers 409 when a merge would give a party the email + birth + address of another', async () => {
    const email = `${unique()}@example.be`;
    await pushLead(server, tenant, 'customers', customer({ email, birth: '1980-05-05', address }));
    const other = await pushLead(
      server,
      tenant,
      'customers',
      customer({ email: `other-${email}`, birth: '1980-05-05', address }),
    );
    const reply = await pushLead(server, tenant, 'customers', customer({ id: other.body.party_id, email }));
    expect(reply.status).toBe(409);
  });
});

describe('merging fields (rule 6)', () => {
  it('overwrites present fields, keeps absent ones, clears nulls', async () => {
    const first = await pushLead(
      server,
      tenant,
      'customers',
      customer(
        {
          email: `${unique()}@example.be`,
          telephonenr: '+32 9 000 00 00',
          language: 'nl',
          callbacks: ['https://a.example.com/hook'],
        },
        { origin: 'crm-a', source: 'web' },
      ),
    );
    const second = await pushLead(server, tenant, 'customers', {
      backref: 'https://crm.example.com/x',
      source: null,
      prospect: {
        id: first.body.party_id,
        first_name: 'Elske',
        last_name: 'Janssens',
        telephonenr: null,
        callbacks: ['https://b.example.com/hook'],
      },
    });
    expect(second.status).toBe(200);
    const lead = second.body;
    expect(lead.prospect.first_name).toBe('Elske');
    expect(lead.prospect.email).toBe(first.body.prospect.email);
    expect(lead.prospect.language).toBe('nl');
    expect(lead.prospect.telephonenr).toBeUndefined();
    expect(lead.origin).toBe('crm-a');
    expect(lead.backref).toBe('https://crm.example.com/x');
    expect(lead.source).toBeNull();
    expect(lead.prospect.callbacks).toEqual(['https://a.example.com/hook', 'https://b.example.com/hook']);
    expect(lead.updated_at > first.body.updated_at).toBe(true);
  });
});

describe('risk objects (rule 7)', () => {
  it('gives changed data a new revision, keeps unchanged data on its revision, and keeps old revisions', async () => {
    const carId = randomUUID();
    const vin = `WVWZZZ1JZXW0${String(Math.floor(Math.random() * 90000) + 10000)}`;
    const first = await pushLead(
      server,
      tenant,
      'customers',
      customer({
        external_refs: [{ external_ref: `ro-${unique()}` }],
        risk_objects: { cars: [{ id: carId, vin, brand: 'Audi', kw: 110 }], residences: [{ address, type: 'HOUSE' }] },
      }),
    );
    const party = first.body.party_id;
    const unchanged = await pushLead(
      server,
      tenant,
      'customers',
      customer({ id: party, risk_objects: { cars: [{ id: carId, brand: 'Audi' }] } }),
    );
    expect(unchanged.body.risk_object_revisions.cars[0].risk_object_revision_id).toBe(
      first.body.risk_object_revisions.cars[0].risk_object_revision_id,
    );

    // Found by VIN alone (no id), with a changed field: a second revision of the same car.
    const changed = await pushLead(
      server,
      tenant,
      'customers',
      customer({ id: party, risk_objects: { cars: [{ vin, kw: 120 }] } }),
    );
    const car = changed.body.risk_object_revisions.cars;
    expect(car).toHaveLength(1);
    expect(car[0]).toMatchObject({ risk_object_id: carId, revision_nr: 2, brand: 'Audi', kw: 120, vin });
    expect(car[0].risk_object_revision_id).not.toBe(first.body.risk_object_revisions.cars[0].risk_object_revision_id);
    const revisions = await server.database.handle.db
      .selectFrom('risk_object_revisions')
      .select(['revision_nr', 'data'])
      .where('risk_object_id', '=', carId)
      .orderBy('revision_nr')
      .execute();
    expect(revisions.map((r) => [Number(r.revision_nr), JSON.parse(r.data).kw])).toEqual([
      [1, 110],
      [2, 120],
    ]);

    // The residence (same address, no id) stays one residence.
    const residences = await pushLead(
      server,
      tenant,
      'customers',
      customer({ id: party, risk_objects: { residences: [{ address, rooms: 5 }] } }),
    );
    expect(residences.body.risk_object_revisions.residences).toEqual([
      expect.objectContaining({ risk_object_type: 'RESIDENCE', revision_nr: 2, rooms: 5, type: 'HOUSE' }),
    ]);
  });

  it('refuses a client id that belongs to another party with 409 on that id', async () => {
    const carId = randomUUID();
    await pushLead(server, tenant, 'customers', customer({ risk_objects: { cars: [{ id: carId }] } }));
    const reply = await pushLead(server, tenant, 'customers', customer({ risk_objects: { cars: [{ id: carId }] } }));
    expect(reply.status).toBe(409);
    expect(reply.body.detail.errors.map((e: any) => e.target)).toEqual(['prospect.risk_objects.cars.0.id']);
  });
});

describe('policies (rules 8 and 9)', () => {
  it('matches policies by external ref, then by insurer + number, and replaces their coverages', async () => {
    const packageId = randomUUID();
    const carId = randomUUID();
    const policyRef = `pol-${unique()}`;
    const first = await pushLead(
      server,
      tenant,
      'customers',
      customer({
        external_refs: [{ external_ref: policyRef }], // the same text as a policy ref: no collision (rule 9)
        risk_objects: { cars: [{ id: carId }] },
        policy_packages: [{ id: packageId, name: 'Home & car' }],
        insurance_policies: [
          {
            name: 'Car',
            policy_nr: 'C-1',
            insurance_company: 'Ins',
            policy_package_id: packageId,
            external_refs: [{ ref: policyRef }],
            coverages: [{ name: 'Omnium', risk_object_id: carId, premium: '100.00' }, { name: 'Legal aid' }],
          },
          { name: 'Fire', policy_nr: 'F-1', insurance_company: 'Ins' },
        ],
      }),
    );
    expect(first.status).toBe(201);
    const party = first.body.party_id;
    const second = await pushLead(
      server,
      tenant,
      'customers',
      customer({
        id: party,
        insurance_policies: [
          // Refers to the package and the car stored with the party, not repeated in this push.
          {
            external_refs: [{ ref: policyRef }],
            type: 'TERMINATED',
            policy_package_id: packageId,
            coverages: [{ name: 'Omnium', risk_object_id: carId, premium: '120.00' }],
          },
          { policy_nr: 'F-1', insurance_company: 'Ins', premium: '80.00' },
        ],
      }),
    );
    expect(second.status).toBe(200);
    const policies = second.body.insurance_policies;
    expect(policies).toHaveLength(2);
    expect(policies[0]).toMatchObject({
      id: first.body.insurance_policies[0].id,
      name: 'Car',
      type: 'TERMINATED',
      policy_package_id: packageId,
    });
    expect(policies[0].coverages).toEqual([
      expect.objectContaining({ name: 'Omnium', premium: '120.00', risk_object_id: carId }),
    ]);
    expect(policies[1]).toMatchObject({ id: first.body.insurance_policies[1].id, name: 'Fire', premium: '80.00' });
  });

  it('refuses references to packages or risk objects that exist neither in the push nor with the party', async () => {
    const reply = await pushLead(
      server,
      tenant,
      'customers',
      customer({
        insurance_policies: [
          { policy_package_id: randomUUID(), coverages: [{ name: 'x' }, { risk_object_id: randomUUID() }] },
        ],
      }),
    );
    expect(reply.status).toBe(422);
    expect(reply.body.detail.errors.map((e: any) => e.target)).toEqual([
      'prospect.insurance_policies.0.policy_package_id',
      'prospect.insurance_policies.0.coverages.1.risk_object_id',
    ]);
  });

  it("refuses a policy ref that belongs to another party's policy", async () => {
    const ref = `owned-${unique()}`;
    await pushLead(
      server,
      tenant,
      'customers',
      customer({ insurance_policies: [{ name: 'A', external_refs: [{ ref, company: 'ins' }] }] }),
    );
    const reply = await pushLead(
      server,
      tenant,
      'customers',
      customer({ insurance_policies: [{ name: 'B', external_refs: [{ ref, company: 'ins' }] }] }),
    );
    expect(reply.status).toBe(409);
    expect(reply.body.detail.errors.map((e: any) => e.target)).toEqual([
      'prospect.insurance_policies.0.external_refs.0',
    ]);
  });
});

describe('kinds', () => {
  it('does not merge a customer push into a company that owns the ref', async () => {
    const ref = `kind-${unique()}`;
    const company = await pushLead(server, tenant, 'companies', {
      prospect: { name: 'ACME', external_refs: [{ external_ref: ref }] },
    });
    expect(company.status).toBe(201);
    const reply = await pushLead(server, tenant, 'customers', customer({ external_refs: [{ external_ref: ref }] }));
    expect(reply.status).toBe(409);
    const byId = await pushLead(server, tenant, 'customers', customer({ id: company.body.party_id }));
    expect(byId.status).toBe(422);
  });
});
