// Hostile bodies, paths and queries (docs/design.md section 8): each is refused with a
// 4xx in the documented body, names the offending value's target, and writes nothing; the
// same on SQLite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, startTestServer, type Tenant, type TestServer } from './support/test-server.ts';
import { countRows, pushLead } from './support/lead-client.ts';
import { callApi } from './support/api-client.ts';
import { MAX_DEPTH } from '../src/http/storable-text.ts';

let server: TestServer;
let tenant: Tenant;
let partyId: string;
let before: Record<string, number>;

const leadsPath = () => `/v1/api/distributions/${tenant.distributionId}/leads/customers`;

beforeAll(async () => {
  server = await startTestServer();
  tenant = await createTenant(server.database.handle, ['leads:write', 'leads:read', 'parties:update', 'parties:read']);
  const seeded = await pushLead(server, tenant, 'customers', { prospect: { first_name: 'Seed', last_name: 'Lead' } });
  expect(seeded.status).toBe(201);
  partyId = seeded.body.party_id;
  before = await countRows(server);
});
afterAll(async () => server?.close());

/** Sends bytes as they are, with the given Content-Type. */
async function postBytes(body: Uint8Array | string, contentType = 'application/json') {
  const response = await fetch(`${server.url}${leadsPath()}`, {
    method: 'POST',
    headers: { authorization: `apikey ${tenant.token}`, 'content-type': contentType },
    body,
  });
  return { status: response.status, body: (await response.json()) as any, headers: response.headers };
}

function targetsOf(body: any): string[] {
  return body.detail.errors.map((entry: { target: string }) => entry.target);
}

describe('bytes and encodings', () => {
  it('refuses bytes that are not UTF-8 with 400, instead of storing U+FFFD', async () => {
    const bytes = Buffer.concat([
      Buffer.from('{"prospect":{"first_name":"Jo'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('","last_name":"X"}}'),
    ]);
    const reply = await postBytes(bytes);
    expect(reply.status).toBe(400);
    expect(reply.body.detail.type).toBe('InvalidJSON');
    expect(reply.body.detail.errors[0].message).toMatch(/UTF-8/);
  });

  it.each(['utf-16', 'UTF-16LE', 'latin1', 'iso-8859-1', '"windows-1252"'])(
    'refuses charset=%s with 415',
    async (charset) => {
      const reply = await postBytes(
        '{"prospect":{"first_name":"A","last_name":"B"}}',
        `application/json; charset=${charset}`,
      );
      expect(reply.status).toBe(415);
      expect(reply.body.detail).toMatchObject({ type: 'UnsupportedMediaType', errors: [{ target: 'Content-Type' }] });
    },
  );

  it('accepts charset=utf-8 in any spelling, and stores non-ASCII text exactly', async () => {
    const reply = await postBytes(
      '{"prospect":{"first_name":"Zoë 𝄞","last_name":"Çelik"}}',
      'application/json; Charset="UTF-8"',
    );
    expect(reply.status).toBe(201);
    expect(reply.body.prospect.first_name).toBe('Zoë 𝄞');
    before = await countRows(server);
  });
});

describe('text that cannot be stored, and numbers that are not finite: 422 on the value', () => {
  it.each([
    [
      'a lone surrogate in an external ref',
      '{"prospect":{"first_name":"A","last_name":"B","external_refs":[{"external_ref":"x\\ud800y","external_ref_company":"crm"}]}}',
      'prospect.external_refs.0.external_ref',
      'invalid_text',
    ],
    ['NUL in origin', '{"origin":"a\\u0000b","prospect":{"first_name":"A","last_name":"B"}}', 'origin', 'invalid_text'],
    [
      'NUL in an address part',
      '{"prospect":{"first_name":"A","last_name":"B","address":{"street":"Veld\\u0000straat","housenr":"1","zipcode":"9000","city":"Gent"}}}',
      'prospect.address.street',
      'invalid_text',
    ],
    [
      'NUL in a key',
      '{"prospect":{"first_name":"A","last_name":"B","x\\u0000":1}}',
      'prospect.x\u0000',
      'invalid_text',
    ],
    [
      'mileage 1e400',
      '{"prospect":{"first_name":"A","last_name":"B","risk_objects":{"cars":[{"vin":"WVWZZZ1JZXW000009","mileage":1e400}]}}}',
      'prospect.risk_objects.cars.0.mileage',
      'not_finite',
    ],
    [
      'insured_value -1e400',
      '{"prospect":{"first_name":"A","last_name":"B"},"policy_packages":[{"coverages":[{"insured_value":-1e400}]}]}',
      'policy_packages.0.coverages.0.insured_value',
      'not_finite',
    ],
  ])('%s', async (_name, body, target) => {
    const reply = await postBytes(body);
    expect(reply.status).toBe(422);
    expect(reply.body.detail.type).toBe('ValidationError');
    expect(targetsOf(reply.body)).toContain(target);
    expect(await countRows(server)).toEqual(before);
  });

  it('reports them together with the schema problems, in one answer', async () => {
    const reply = await postBytes(
      '{"origin":"a\\u0000b","prospect":{"first_name":"A","risk_objects":{"cars":[{"vin":"WVWZZZ1JZXW000009","mileage":1e400}]}}}',
    );
    expect(reply.status).toBe(422);
    expect(targetsOf(reply.body)).toEqual(
      expect.arrayContaining(['origin', 'prospect.risk_objects.cars.0.mileage', 'prospect.last_name']),
    );
    expect(reply.body.detail.error_str).toMatch(/^3 validation errors for CustomerLead\n/);
  });

  it('the same in a PATCH', async () => {
    const response = await fetch(`${server.url}/v1/api/distributions/${tenant.distributionId}/parties/${partyId}`, {
      method: 'PATCH',
      headers: { authorization: `apikey ${tenant.token}`, 'content-type': 'application/merge-patch+json' },
      body: '{"first_name":"x\\ud800","risk_objects":{"cars":[{"vin":"WVWZZZ1JZXW000009","mileage":1e400}]}}',
    });
    expect(response.status).toBe(422);
    expect(targetsOf(await response.json())).toEqual(
      expect.arrayContaining(['first_name', 'risk_objects.cars.0.mileage']),
    );
    expect(await countRows(server)).toEqual(before);
  });
});

describe('callback URLs the sender could never call', () => {
  it('refuses an invalid or zero port and what the WHATWG parser refuses, at push, on its own index', async () => {
    const callbacks = [
      'https://ok.example.com/hook',
      'http://example.com:99999/',
      'http://example.com:0/hook',
      'http://exa mple.com/',
      'https://[::1/hook',
    ];
    const reply = await postBytes(JSON.stringify({ prospect: { first_name: 'A', last_name: 'B', callbacks } }));
    expect(reply.status).toBe(422);
    expect(targetsOf(reply.body).sort()).toEqual([
      'prospect.callbacks.1',
      'prospect.callbacks.2',
      'prospect.callbacks.3',
      'prospect.callbacks.4',
    ]);
    expect(await countRows(server)).toEqual(before);
  });
});

describe('nesting', () => {
  it('a PATCH nested 5,000 deep is a 422 at the depth limit, not a stack overflow', async () => {
    const deep = `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`;
    const response = await fetch(`${server.url}/v1/api/distributions/${tenant.distributionId}/parties/${partyId}`, {
      method: 'PATCH',
      headers: { authorization: `apikey ${tenant.token}`, 'content-type': 'application/merge-patch+json' },
      body: deep,
    });
    expect(response.status).toBe(422);
    const body: any = await response.json();
    expect(body.detail.errors).toHaveLength(1);
    expect(body.detail.errors[0].target).toBe(Array(MAX_DEPTH).fill('a').join('.'));
    expect(await countRows(server)).toEqual(before);
  });

  it('a push of nested arrays 100,000 deep likewise', async () => {
    const reply = await postBytes(`{"prospect":${'['.repeat(100_000)}${']'.repeat(100_000)}}`);
    expect(reply.status).toBe(422);
  });
});

describe('long lists', () => {
  it('20,000 empty residences: the list is refused for its length, its items checked only up to the limit', async () => {
    const body = JSON.stringify({
      prospect: { first_name: 'A', last_name: 'B', risk_objects: { residences: Array(20_000).fill({}) } },
    });
    const reply = await postBytes(body);
    expect(reply.status).toBe(422);
    const { errors, error_str } = reply.body.detail;
    expect(errors[0]).toMatchObject({
      target: 'prospect.risk_objects.residences',
      message: expect.stringMatching(/maximum number of items. \(50\)/),
    });
    // The length, and the first 50 residences' missing address: not 20,001 entries.
    expect(errors).toHaveLength(51);
    expect(errors.at(-1).target).toBe('prospect.risk_objects.residences.49.address');
    expect(error_str).toMatch(/^51 validation errors for CustomerLead\n/);
    expect(await countRows(server)).toEqual(before);
  });

  it('caps one answer at 100 entries; error_str says how many more there were', async () => {
    // 50 residences (the limit), each missing its address, and 50 cars with bad VINs, plus
    // 30 invalid external refs: 130 problems.
    const body = JSON.stringify({
      prospect: {
        first_name: 'A',
        last_name: 'B',
        external_refs: Array.from({ length: 20 }, () => ({ external_ref: 7, external_ref_company: 8 })),
        risk_objects: { residences: Array(50).fill({ address: {} }), cars: Array(50).fill({ vin: 12 }) },
      },
    });
    const reply = await postBytes(body);
    expect(reply.status).toBe(422);
    const { errors, error_str } = reply.body.detail;
    expect(errors).toHaveLength(100);
    const total = Number(/^(\d+) validation errors/.exec(error_str)![1]);
    expect(total).toBeGreaterThan(100);
    expect(error_str).toMatch(new RegExp(`\\n\\.\\.\\. and ${total - 100} more validation errors? not listed$`));
  });
});

describe('paths and queries', () => {
  it('a NUL in a path id names nothing: 404, on both databases', async () => {
    for (const path of [
      `/distributions/${tenant.distributionId}/leads/%00`,
      `/distributions/${tenant.distributionId}/parties/a%00b`,
    ]) {
      const reply = await callApi(server, tenant, 'GET', path);
      expect(reply.status).toBe(404);
      expect(reply.body.detail.type).toBe('NotFound');
    }
  });

  it('a NUL in a query parameter is a 422 on that parameter', async () => {
    const reply = await callApi(
      server,
      tenant,
      'GET',
      `/distributions/${tenant.distributionId}/leads?external_ref=a%00b`,
    );
    expect(reply.status).toBe(422);
    expect(targetsOf(reply.body)).toEqual(['external_ref']);
  });

  it('a leap second in updated_since is a 422, not a 500', async () => {
    const reply = await callApi(
      server,
      tenant,
      'GET',
      `/distributions/${tenant.distributionId}/leads?updated_since=2016-12-31T23:59:60Z`,
    );
    expect(reply.status).toBe(422);
    expect(targetsOf(reply.body)).toEqual(['updated_since']);
  });

  it('an updated_since with an offset still works', async () => {
    const reply = await callApi(
      server,
      tenant,
      'GET',
      `/distributions/${tenant.distributionId}/leads?updated_since=${encodeURIComponent('2020-01-01T00:00:00+02:00')}`,
    );
    expect(reply.status).toBe(200);
  });
});
