// Reading and updating parties (docs/design.md section 2): representation, revisions, JSON Merge Patch,
// If-Match.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createTenant, startTestServer, type Tenant, type TestServer } from './support/test-server.ts';
import { pushLead } from './support/lead-client.ts';
import { callApi } from './support/api-client.ts';
import { leadExamples } from '../src/party/index.ts';

let server: TestServer;
let tenant: Tenant;
let other: Tenant;
const SCOPES = ['leads:write', 'parties:read', 'parties:update'];

beforeAll(async () => {
  server = await startTestServer();
  tenant = await createTenant(server.database.handle, SCOPES);
  other = await createTenant(server.database.handle, SCOPES);
});
afterAll(() => server.close());

const partyPath = (partyId: string, t: Tenant = tenant) => `/distributions/${t.distributionId}/parties/${partyId}`;
const vin = () => `WVWZZZ1JZXW${String(Math.floor(Math.random() * 900000) + 100000)}`;

async function newParty(extra: Record<string, unknown> = {}) {
  const carId = randomUUID();
  const pushed = await pushLead(server, tenant, 'customers', {
    prospect: {
      first_name: 'Patch',
      last_name: 'Me',
      email: `${randomUUID()}@example.be`,
      telephonenr: '+32 9 111 11 11',
      address: { street: 'Veldstraat', housenr: '1', zipcode: '9000', city: 'Gent' },
      risk_objects: { cars: [{ id: carId, vin: vin(), brand: 'Volvo', kw: 100 }] },
      ...extra,
    },
  });
  expect(pushed.status).toBe(201);
  return { partyId: pushed.body.party_id as string, leadId: pushed.body.id as string, carId };
}

describe('GET a party', () => {
  it('returns the prospect with its current risk objects, packages, policies and coverages', async () => {
    const pushed = await pushLead(
      server,
      tenant,
      'customers',
      leadExamples.CUSTOMER.prospect
        ? {
            ...leadExamples.CUSTOMER,
            prospect: {
              ...leadExamples.CUSTOMER.prospect,
              external_refs: [{ external_ref: randomUUID() }],
              risk_objects: { cars: [{ vin: vin() }] },
              policy_packages: [],
              insurance_policies: [{ name: 'Solo', coverages: [{ name: 'Basic' }] }],
            },
          }
        : {},
    );
    const reply = await callApi(server, tenant, 'GET', partyPath(pushed.body.party_id));
    expect(reply.status).toBe(200);
    expect(reply.headers.get('etag')).toBeTruthy();
    expect(reply.body).toMatchObject({
      id: pushed.body.party_id,
      lead_id: pushed.body.id,
      type: 'CUSTOMER',
      first_name: 'Els',
      risk_objects: { cars: [expect.objectContaining({ risk_object_type: 'CAR' })], residences: [] },
      insurance_policies: [
        expect.objectContaining({ name: 'Solo', coverages: [expect.objectContaining({ name: 'Basic' })] }),
      ],
    });
    expect(reply.body.self).toBe(`${server.config.publicUrl}/v1/api${partyPath(pushed.body.party_id)}`);
  });

  it("answers 404 for another distribution's party", async () => {
    const { partyId } = await newParty();
    expect((await callApi(server, other, 'GET', partyPath(partyId, other))).status).toBe(404);
    expect(
      (await callApi(server, other, 'PATCH', partyPath(partyId, other), { body: { first_name: 'X' } })).status,
    ).toBe(404);
  });
});

describe('PATCH a party (JSON Merge Patch)', () => {
  it('overwrites present members, clears nulls, merges objects member by member', async () => {
    const { partyId } = await newParty();
    const reply = await callApi(server, tenant, 'PATCH', partyPath(partyId), {
      body: { first_name: 'Patched', telephonenr: null, address: { housenr: '2' } },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect(reply.status).toBe(200);
    expect(reply.body.first_name).toBe('Patched');
    expect(reply.body.last_name).toBe('Me');
    expect(reply.body.telephonenr).toBeUndefined();
    expect(reply.body.address).toEqual({
      street: 'Veldstraat',
      housenr: '2',
      zipcode: '9000',
      city: 'Gent',
      country_code: 'BE',
    });
    const read = await callApi(server, tenant, 'GET', partyPath(partyId));
    expect(read.body).toEqual(reply.body);
    expect(read.headers.get('etag')).toBe(reply.headers.get('etag'));
  });

  it('replaces risk object arrays: changed objects get a new revision, left-out ones are removed, revisions stay', async () => {
    const { partyId, carId } = await newParty();
    const before = await callApi(server, tenant, 'GET', partyPath(partyId));
    const car = before.body.risk_objects.cars[0];
    const reply = await callApi(server, tenant, 'PATCH', partyPath(partyId), {
      body: {
        risk_objects: {
          cars: [{ id: carId, vin: car.vin, brand: 'Volvo', kw: 140 }],
          residences: [{ address: { housenr: '5', zipcode: '1000', city: 'Brussel' } }],
        },
      },
    });
    expect(reply.status).toBe(200);
    expect(reply.body.risk_objects.cars).toEqual([
      expect.objectContaining({ risk_object_id: carId, revision_nr: 2, kw: 140 }),
    ]);
    expect(reply.body.risk_objects.residences).toHaveLength(1);

    const revisions = await callApi(server, tenant, 'GET', `${partyPath(partyId)}/risk_objects/${carId}/revisions`);
    expect(revisions.body.items.map((r: any) => [r.revision_nr, r.data.kw, r.current])).toEqual([
      [1, 100, false],
      [2, 140, true],
    ]);
    const one = await callApi(
      server,
      tenant,
      'GET',
      revisions.body.items[0].self.replace(`${server.config.publicUrl}/v1/api`, ''),
    );
    expect(one.body).toEqual(revisions.body.items[0]);

    const removed = await callApi(server, tenant, 'PATCH', partyPath(partyId), {
      body: { risk_objects: { cars: [] } },
    });
    expect(removed.body.risk_objects.cars).toEqual([]);
    // `risk_objects` is an object: the patch merges into it, so residences stay.
    expect(removed.body.risk_objects.residences).toHaveLength(1);
    const kept = await callApi(server, tenant, 'GET', `${partyPath(partyId)}/risk_objects/${carId}/revisions`);
    expect(kept.status).toBe(200);
    expect(kept.body.items).toHaveLength(2);
  });

  it('changes nothing for a patch that sets what is already stored', async () => {
    const { partyId } = await newParty();
    const before = await callApi(server, tenant, 'GET', partyPath(partyId));
    const reply = await callApi(server, tenant, 'PATCH', partyPath(partyId), { body: { first_name: 'Patch' } });
    expect(reply.headers.get('etag')).toBe(before.headers.get('etag'));
    expect(reply.body.updated_at).toBe(before.body.updated_at);
  });

  it('validates the result with the push schemas and answers every problem at once', async () => {
    const { partyId } = await newParty();
    const reply = await callApi(server, tenant, 'PATCH', partyPath(partyId), {
      body: {
        first_name: null,
        birth: 'yesterday',
        nickname: 'x',
        address: { zipcode: '12' },
        risk_objects: { boats: [] },
      },
    });
    expect(reply.status).toBe(422);
    expect(reply.body.detail.errors.map((e: any) => e.target).sort()).toEqual(
      ['address.zipcode', 'birth', 'first_name', 'nickname', 'risk_objects.boats'].sort(),
    );
    expect(reply.body.detail.error_str).toMatch(/^5 validation errors for PartyPatch/);
    expect((await callApi(server, tenant, 'GET', partyPath(partyId))).body.first_name).toBe('Patch');
  });

  it('answers 412 when If-Match names an older version, and applies the patch when it names the current one', async () => {
    const { partyId } = await newParty();
    const etag = (await callApi(server, tenant, 'GET', partyPath(partyId))).headers.get('etag')!;
    const first = await callApi(server, tenant, 'PATCH', partyPath(partyId), {
      body: { last_name: 'One' },
      headers: { 'if-match': etag },
    });
    expect(first.status).toBe(200);
    const stale = await callApi(server, tenant, 'PATCH', partyPath(partyId), {
      body: { last_name: 'Two' },
      headers: { 'if-match': etag },
    });
    expect(stale.status).toBe(412);
    expect(stale.body.detail.type).toBe('PreconditionFailed');
    // The partner learns what happened and what to do, not only that a precondition failed.
    expect(stale.body.detail.errors).toEqual([
      {
        type: 'PreconditionFailed',
        target: 'If-Match',
        message:
          'The resource changed since it was read: its ETag no longer matches If-Match. Read it again and send the change with the new ETag.',
      },
    ]);
    expect((await callApi(server, tenant, 'GET', partyPath(partyId))).body.last_name).toBe('One');
    const fresh = await callApi(server, tenant, 'PATCH', partyPath(partyId), {
      body: { last_name: 'Two' },
      headers: { 'if-match': first.headers.get('etag')! },
    });
    expect(fresh.status).toBe(200);
  });

  it('lets one of two concurrent updates with the same If-Match win, the other gets 412', async () => {
    const { partyId } = await newParty();
    const etag = (await callApi(server, tenant, 'GET', partyPath(partyId))).headers.get('etag')!;
    const replies = await Promise.all(
      ['A', 'B'].map((name) =>
        callApi(server, tenant, 'PATCH', partyPath(partyId), {
          body: { last_name: name },
          headers: { 'if-match': etag },
        }),
      ),
    );
    expect(replies.map((r) => r.status).sort()).toEqual([200, 412]);
  });

  it('refuses a risk object id of another party with 409', async () => {
    const a = await newParty();
    const b = await newParty();
    const reply = await callApi(server, tenant, 'PATCH', partyPath(b.partyId), {
      body: { risk_objects: { cars: [{ id: a.carId }] } },
    });
    expect(reply.status).toBe(409);
    expect(reply.body.detail.errors[0].target).toBe('risk_objects.cars.0.id');
  });

  it('refuses a push that names a car the party update removed, with 422 on its id, and writes nothing', async () => {
    const { partyId, leadId, carId } = await newParty();
    expect(
      (await callApi(server, tenant, 'PATCH', partyPath(partyId), { body: { risk_objects: { cars: [] } } })).status,
    ).toBe(200);
    const before = await callApi(server, tenant, 'GET', partyPath(partyId));
    const pushed = await pushLead(server, tenant, 'customers', {
      prospect: {
        id: partyId,
        first_name: 'Patch',
        last_name: 'Again',
        risk_objects: { cars: [{ id: carId, kw: 90 }] },
      },
    });
    expect(pushed.status).toBe(422);
    expect(pushed.body.detail.errors).toEqual([
      expect.objectContaining({ target: 'prospect.risk_objects.cars.0.id', type: 'ValidationError' }),
    ]);
    const after = await callApi(server, tenant, 'GET', partyPath(partyId));
    expect(after.body).toEqual(before.body);
    expect(after.headers.get('etag')).toBe(before.headers.get('etag'));
    expect(leadId).toBe(before.body.lead_id);
  });
});
