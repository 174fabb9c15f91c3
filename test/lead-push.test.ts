// Pushing leads: create, response shape, push log (docs/design.md section 2 and rules 2, 3, 11).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, startTestServer, type Tenant, type TestServer } from './support/test-server.ts';
import { countRows, pushLead } from './support/lead-client.ts';
import { leadExamples } from '../src/party/index.ts';
import { callApi } from './support/api-client.ts';

let server: TestServer;
let tenant: Tenant;

beforeAll(async () => {
  server = await startTestServer({ PUBLIC_URL: 'https://intake.example.com', APP_URL: 'https://app.example.com' });
  tenant = await createTenant(server.database.handle);
});
afterAll(() => server.close());

describe('a new customer lead', () => {
  it('is created with 201, a Location equal to self, and the full representation', async () => {
    const reply = await pushLead(server, tenant, 'customers', leadExamples.CUSTOMER);
    expect(reply.status).toBe(201);
    const lead = reply.body;
    expect(reply.headers.get('location')).toBe(lead.self);
    expect(lead.self).toBe(`https://intake.example.com/v1/api/distributions/${tenant.distributionId}/leads/${lead.id}`);
    expect(lead.party_id).toBe(lead.prospect.id);
    expect(lead.href).toBe(`https://app.example.com/app/parties/${lead.party_id}`);
    for (const link of ['href_to_proflow', 'href_to_risk_scan', 'href_to_advisory_flow']) {
      expect(lead[link]).toMatch(new RegExp(`^https://app\\.example\\.com/.+/${lead.party_id}$`));
    }
    expect(lead).toMatchObject({
      origin: 'acme-crm',
      backref: 'https://crm.example.com/contacts/20417',
      source: null,
      prospect: {
        type: 'CUSTOMER',
        first_name: 'Els',
        last_name: 'Wouters',
        email: 'els.wouters@example.be',
        birth: '1979-09-23',
        external_refs: [{ ref: '20417', company: 'acme-crm' }],
        callbacks: ['https://crm.example.com/hooks/lead-intake'],
      },
    });
    const [car] = lead.risk_object_revisions.cars;
    expect(car).toMatchObject({
      risk_object_id: '3f0c9a43-4f6e-4c9b-9a57-2f1d1c8b7e01',
      risk_object_type: 'CAR',
      revision_nr: 1,
      vin: 'WVWZZZ1JZXW000001',
      brand: 'Volkswagen',
    });
    expect(car.self).toContain(
      `/parties/${lead.party_id}/risk_objects/${car.risk_object_id}/revisions/${car.risk_object_revision_id}`,
    );
    expect(lead.policy_packages).toEqual([
      expect.objectContaining({ id: '9b2e4f7a-1c3d-4e5f-8a6b-7c8d9e0f1a2b', premium: '499.95' }),
    ]);
    expect(lead.insurance_policies).toHaveLength(1);
    expect(lead.insurance_policies[0]).toMatchObject({
      policy_package_id: '9b2e4f7a-1c3d-4e5f-8a6b-7c8d9e0f1a2b',
      policy_nr: 'P-2026-001',
      type: 'ACTIVE',
      coverages: [
        {
          name: 'Third-party liability',
          risk_object_id: car.risk_object_id,
          insured_value: 25000,
          premium: '320.00',
          external_label: { label: 'BA', type: 'AFD' },
        },
      ],
    });
    expect(lead.created_at).toBe(lead.updated_at);
  });

  it('keeps money exactly as sent', async () => {
    const reply = await pushLead(server, tenant, 'customers', {
      prospect: {
        first_name: 'Exact',
        last_name: 'Money',
        policy_packages: [
          { name: 'P', premium: '0.10' },
          { name: 'Q', premium: '123456789012345.123456' },
        ],
      },
    });
    expect(reply.status).toBe(201);
    expect(reply.body.policy_packages.map((p: any) => p.premium)).toEqual(['0.10', '123456789012345.123456']);
  });
});

describe("the docs' example push", () => {
  it("names a person of its own: after the README's person is erased, the example still creates its lead", async () => {
    // A server of its own: the example's client-chosen ids are pushed once per database.
    const fresh = await startTestServer();
    try {
      const t = await createTenant(fresh.database.handle, ['leads:write', 'leads:read', 'parties:erase']);
      // The README's quick start, as written there.
      const readme = await pushLead(fresh, t, 'customers', {
        origin: 'acme-crm',
        prospect: {
          first_name: 'Jan',
          last_name: 'Peeters',
          email: 'jan.peeters@example.be',
          external_refs: [{ external_ref: '4711', external_ref_company: 'acme-crm' }],
        },
      });
      expect(readme.status).toBe(201);
      const path = `/distributions/${t.distributionId}/parties/${readme.body.party_id}`;
      expect((await callApi(fresh, t, 'DELETE', path)).status).toBe(200);
      const example = await pushLead(fresh, t, 'customers', leadExamples.CUSTOMER);
      expect(example.status, JSON.stringify(example.body)).toBe(201);
      expect((await pushLead(fresh, t, 'companies', leadExamples.COMPANY)).status).toBe(201);
    } finally {
      await fresh.close();
    }
  });
});

describe('a new company lead', () => {
  it('is created with origin, backref and the company fields', async () => {
    const reply = await pushLead(server, tenant, 'companies', leadExamples.COMPANY);
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({
      origin: 'acme-crm',
      backref: 'https://crm.example.com/accounts/812',
      prospect: {
        type: 'COMPANY',
        name: 'Peeters Logistics BV',
        enterprise_nr: 'BE0123.456.749',
        address: { street: 'Veldstraat', housenr: '1', zipcode: '9000', city: 'Gent', country_code: 'BE' },
        external_refs: [{ ref: 'ACC-812', company: 'acme-crm' }],
      },
    });
    expect(reply.body.prospect.first_name).toBeUndefined();
  });
});

describe('pushing the same lead twice', () => {
  it('answers 200 with the same lead, keeps revisions, and logs both pushes verbatim', async () => {
    const body = {
      origin: 'twice',
      prospect: {
        first_name: 'Twice',
        last_name: 'Pushed',
        external_refs: [{ external_ref: 'T-1', external_ref_company: 'crm' }],
        risk_objects: { cars: [{ vin: 'WVWZZZ1JZXW000002', brand: 'Skoda' }] },
      },
    };
    const first = await pushLead(server, tenant, 'customers', body);
    const raw = `{ "origin": "twice",\n  "prospect": ${JSON.stringify(body.prospect)} }`;
    const second = await pushLead(server, tenant, 'customers', raw);
    expect([first.status, second.status]).toEqual([201, 200]);
    expect(second.headers.get('location')).toBeNull();
    expect(second.body.id).toBe(first.body.id);
    expect(second.body.party_id).toBe(first.body.party_id);
    // Unchanged data keeps the current revision (rule 7) and the lead's updated_at.
    expect(second.body.risk_object_revisions.cars[0].risk_object_revision_id).toBe(
      first.body.risk_object_revisions.cars[0].risk_object_revision_id,
    );
    expect(second.body.updated_at).toBe(first.body.updated_at);

    const pushes = await server.database.handle.db
      .selectFrom('lead_pushes')
      .selectAll()
      .where('lead_id', '=', first.body.id)
      .orderBy('received_at')
      .execute();
    expect(pushes.map((p) => Number(p.status))).toEqual([201, 200]);
    expect(pushes[1]!.payload).toBe(raw);
    expect(pushes[0]!.caller).toMatch(/^token:/);
    expect(pushes[0]!.origin).toBe('twice');
  });
});

describe('metrics', () => {
  it('count created and merged leads', async () => {
    const read = async () => {
      const text = await (await fetch(`${server.url}/metrics`)).text();
      const count = (outcome: string) =>
        Number(new RegExp(`lead_intake_leads_pushed_total\\{outcome="${outcome}"\\} (\\d+)`).exec(text)?.[1] ?? 0);
      return { created: count('created'), merged: count('merged') };
    };
    const before = await read();
    const body = { prospect: { first_name: 'Count', last_name: 'Me', external_refs: [{ external_ref: 'metrics-1' }] } };
    await pushLead(server, tenant, 'customers', body);
    await pushLead(server, tenant, 'customers', body);
    await pushLead(server, tenant, 'customers', body);
    expect(await read()).toEqual({ created: before.created + 1, merged: before.merged + 2 });
  });
});

describe('a refused push', () => {
  it('writes nothing', async () => {
    const before = await countRows(server);
    const reply = await pushLead(server, tenant, 'customers', {
      prospect: {
        first_name: 'Dangling',
        last_name: 'Reference',
        external_refs: [{ external_ref: 'DANGLING-1' }],
        risk_objects: { cars: [{ vin: 'WVWZZZ1JZXW000003' }] },
        insurance_policies: [{ name: 'x', policy_package_id: '11111111-1111-4111-8111-111111111111' }],
      },
    });
    expect(reply.status).toBe(422);
    expect(reply.body.detail.errors.map((e: any) => e.target)).toEqual([
      'prospect.insurance_policies.0.policy_package_id',
    ]);
    expect(await countRows(server)).toEqual(before);
  });
});
