// Reading leads back (issue 5): by id, by external ref, changes since, the push log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createTenant, startTestServer, type Tenant, type TestServer } from './support/test-server.ts';
import { pushLead } from './support/lead-client.ts';
import { callApi } from './support/api-client.ts';
import { leadExamples } from '../src/party/index.ts';

let server: TestServer;
let tenant: Tenant;
let other: Tenant;

beforeAll(async () => {
  server = await startTestServer();
  tenant = await createTenant(server.database.handle, ['leads:write', 'leads:read', 'parties:read']);
  other = await createTenant(server.database.handle, ['leads:write', 'leads:read', 'parties:read']);
});
afterAll(() => server.close());

describe('GET a lead', () => {
  it('returns the representation the push returned, at its self address, with an ETag', async () => {
    const pushed = await pushLead(server, tenant, 'customers', leadExamples.CUSTOMER);
    const read = await fetch(pushed.body.self.replace(server.config.publicUrl, server.url), {
      headers: { authorization: `apikey ${tenant.token}` },
    });
    expect(read.status).toBe(200);
    expect(await read.json()).toEqual(pushed.body);
    expect(read.headers.get('etag')).toMatch(/^"[^"]+"$/);
  });

  it('changes its ETag when the lead changes, not when a push changes nothing', async () => {
    const body = { prospect: { first_name: 'E', last_name: 'Tag', external_refs: [{ external_ref: randomUUID() }] } };
    const pushed = await pushLead(server, tenant, 'customers', body);
    const path = `/distributions/${tenant.distributionId}/leads/${pushed.body.id}`;
    const first = (await callApi(server, tenant, 'GET', path)).headers.get('etag');
    await pushLead(server, tenant, 'customers', body);
    expect((await callApi(server, tenant, 'GET', path)).headers.get('etag')).toBe(first);
    await pushLead(server, tenant, 'customers', { prospect: { ...body.prospect, telephonenr: '+32 470 00 00 00' } });
    expect((await callApi(server, tenant, 'GET', path)).headers.get('etag')).not.toBe(first);
  });

  it("answers 404 for an unknown id and for another distribution's lead alike", async () => {
    const theirs = await pushLead(server, other, 'customers', { prospect: { first_name: 'Not', last_name: 'Yours' } });
    for (const id of [randomUUID(), theirs.body.id, 'not-a-uuid']) {
      const reply = await callApi(server, tenant, 'GET', `/distributions/${tenant.distributionId}/leads/${id}`);
      expect(reply.status).toBe(404);
      expect(reply.body.detail.type).toBe('NotFound');
    }
  });
});

describe('finding leads', () => {
  it('finds a lead by external ref and company, or by the ref of any company, or of none', async () => {
    const ref = randomUUID();
    const withCompany = await pushLead(server, tenant, 'customers', {
      prospect: {
        first_name: 'A',
        last_name: 'B',
        external_refs: [{ external_ref: ref, external_ref_company: 'crm' }],
      },
    });
    const withoutCompany = await pushLead(server, tenant, 'companies', {
      prospect: { name: 'C', external_refs: [{ external_ref: ref }] },
    });
    const base = `/distributions/${tenant.distributionId}/leads`;
    const ids = async (query: string) =>
      (await callApi(server, tenant, 'GET', `${base}?${query}`)).body.items.map((l: any) => l.id);
    const a = await callApi(server, tenant, 'GET', `${base}?external_ref=${ref}&external_ref_company=crm`);
    expect(a.body.items.map((l: any) => l.id)).toEqual([withCompany.body.id]);
    expect(a.body.next).toBeNull();
    // Without external_ref_company, the ref of any company (docs/api.md, "Reading and updating"):
    // both leads, in the listing's order.
    expect(await ids(`external_ref=${ref}`)).toEqual([withCompany.body.id, withoutCompany.body.id]);
    // An empty external_ref_company asks for the ref sent without a company.
    expect(await ids(`external_ref=${ref}&external_ref_company=`)).toEqual([withoutCompany.body.id]);
    expect(await ids(`external_ref=${ref}&external_ref_company=other`)).toEqual([]);
    // A ref only pushed with a company is found without naming it, as docs/api.md shows.
    const crmOnly = randomUUID();
    const crmLead = await pushLead(server, tenant, 'customers', {
      prospect: {
        first_name: 'D',
        last_name: 'E',
        external_refs: [{ external_ref: crmOnly, external_ref_company: 'crm' }],
      },
    });
    expect(await ids(`external_ref=${crmOnly}`)).toEqual([crmLead.body.id]);
    // A policy's ref is not a prospect's ref.
    const policyRef = randomUUID();
    await pushLead(server, tenant, 'customers', {
      prospect: {
        first_name: 'F',
        last_name: 'G',
        insurance_policies: [{ external_refs: [{ ref: policyRef, company: 'crm' }] }],
      },
    });
    expect(await ids(`external_ref=${policyRef}`)).toEqual([]);
    const elsewhere = await callApi(
      server,
      other,
      'GET',
      `/distributions/${other.distributionId}/leads?external_ref=${ref}`,
    );
    expect(elsewhere.body.items).toEqual([]);
  });

  it('lists changes since a time, oldest change first', async () => {
    const before = new Date(Date.now() - 1).toISOString();
    const a = await pushLead(server, tenant, 'customers', {
      prospect: { first_name: 'Since', last_name: 'A', external_refs: [{ external_ref: randomUUID() }] },
    });
    const b = await pushLead(server, tenant, 'customers', { prospect: { first_name: 'Since', last_name: 'B' } });
    await pushLead(server, tenant, 'customers', {
      prospect: { id: a.body.party_id, first_name: 'Since', last_name: 'A2' },
    });
    const reply = await callApi(
      server,
      tenant,
      'GET',
      `/distributions/${tenant.distributionId}/leads?updated_since=${encodeURIComponent(before)}&limit=100`,
    );
    const ids = reply.body.items.map((l: any) => l.id);
    expect(ids.slice(-2)).toEqual([b.body.id, a.body.id]);
  });

  it('refuses a bad limit, date or cursor with 422', async () => {
    const base = `/distributions/${tenant.distributionId}/leads`;
    for (const [query, target] of [
      ['limit=101', 'limit'],
      ['limit=0', 'limit'],
      ['updated_since=yesterday', 'updated_since'],
      ['cursor=%21%21', 'cursor'],
    ]) {
      const reply = await callApi(server, tenant, 'GET', `${base}?${query}`);
      expect(reply.status).toBe(422);
      expect(reply.body.detail.errors[0].target).toBe(target);
    }
  });
});

describe('paginating while leads are pushed', () => {
  it('neither skips nor repeats a lead', async () => {
    const tenantP = await createTenant(server.database.handle, ['leads:write', 'leads:read']);
    const existing = new Set<string>();
    for (let i = 0; i < 25; i++) {
      existing.add(
        (await pushLead(server, tenantP, 'customers', { prospect: { first_name: 'Page', last_name: String(i) } })).body
          .id,
      );
    }
    const seen: string[] = [];
    let path: string | null = `/distributions/${tenantP.distributionId}/leads?limit=4`;
    let pushing = 0;
    while (path) {
      const page = await callApi(server, tenantP, 'GET', path);
      expect(page.status).toBe(200);
      seen.push(...page.body.items.map((l: any) => l.id));
      // New leads arrive between pages, concurrently with the next read.
      await Promise.all(
        Array.from({ length: 3 }, () =>
          pushLead(server, tenantP, 'customers', { prospect: { first_name: 'New', last_name: String(pushing++) } }),
        ),
      );
      path = page.body.next ? page.body.next.replace(`${server.config.publicUrl}/v1/api`, '') : null;
    }
    expect(new Set(seen).size).toBe(seen.length);
    for (const id of existing) expect(seen).toContain(id);
  });
});

describe('the push log', () => {
  it('lists every accepted push with caller, origin, status and the payload as received', async () => {
    const body = {
      origin: 'crm-x',
      prospect: { first_name: 'Log', last_name: 'Me', external_refs: [{ external_ref: randomUUID() }] },
    };
    const first = await pushLead(server, tenant, 'customers', body);
    await pushLead(server, tenant, 'customers', { ...body, origin: 'crm-y' });
    const reply = await callApi(
      server,
      tenant,
      'GET',
      `/distributions/${tenant.distributionId}/leads/${first.body.id}/pushes`,
    );
    expect(reply.status).toBe(200);
    expect(reply.body.items.map((p: any) => [p.status, p.origin, p.kind])).toEqual([
      [201, 'crm-x', 'CUSTOMER'],
      [200, 'crm-y', 'CUSTOMER'],
    ]);
    expect(reply.body.items[0].payload).toEqual(body);
    expect(reply.body.items[0].caller).toMatch(/^token:/);
    const elsewhere = await callApi(
      server,
      other,
      'GET',
      `/distributions/${other.distributionId}/leads/${first.body.id}/pushes`,
    );
    expect(elsewhere.status).toBe(404);
  });
});
