// The OpenAPI document as a partner's tools read it (docs/design.md section 16): named
// component schemas, an operationId per operation, no HTML routes, and, checked the way a
// validating proxy (Prism) checks traffic, every answer the real server gives over a
// sequence of calls has its status, body and headers declared.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ajv, type ValidateFunction } from 'ajv';
import { default as addFormatsModule } from 'ajv-formats';
import { leadExamples } from '../src/party/index.ts';
import { startReceiver, type WebhookReceiver } from './support/webhook-receiver.ts';
import { createTenant, startTestServer, type Tenant, type TestServer } from './support/test-server.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/** The names a generated client must have (docs/design.md section 16), of the operations that exist. */
const REQUIRED_SCHEMAS = [
  'CustomerLead',
  'CompanyLead',
  'Lead',
  'Party',
  'PartyPatch',
  'LeadPatch',
  'Car',
  'Residence',
  'PolicyPackage',
  'InsurancePolicy',
  'Coverage',
  'ErrorBody',
  'LeadBatch',
  'LeadBatchResult',
  'ErasureReceipt',
  'PartyExport',
];
/** Response headers a client may rely on: each one the server sends must be declared. */
const CONTRACT_HEADERS = [
  'x-request-id',
  'etag',
  'location',
  'www-authenticate',
  'retry-after',
  'ratelimit-limit',
  'ratelimit-remaining',
  'ratelimit-reset',
  'idempotent-replayed',
];

let server: TestServer;
let tenant: Tenant;
let document: any;
let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startReceiver();
  server = await startTestServer({ RATE_LIMIT: '40/min', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
  tenant = await createTenant(server.database.handle, [
    'leads:write',
    'leads:read',
    'parties:read',
    'parties:update',
    'parties:erase',
  ]);
  document = await (await fetch(`${server.url}/openapi.json`)).json();
});
afterAll(async () => {
  await server?.close();
  await receiver?.close();
});

function operations(): Array<{ path: string; method: string; operation: any }> {
  return Object.entries(document.paths).flatMap(([path, item]: [string, any]) =>
    Object.entries(item).map(([method, operation]) => ({ path, method, operation })),
  );
}

describe('the document a generator reads', () => {
  it('names every operation, once', () => {
    const ids = operations().map(({ operation }) => operation.operationId);
    expect(ids.filter((id) => typeof id !== 'string')).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('gives every JSON body, request and response, as a $ref to a named component schema', () => {
    const inline: string[] = [];
    for (const { path, method, operation } of operations()) {
      const media = [
        ['request', operation.requestBody?.content?.['application/json']],
        ...Object.entries(operation.responses).map(([status, r]: [string, any]) => [
          status,
          r.content?.['application/json'],
        ]),
      ];
      for (const [where, content] of media) {
        if (content && typeof content.schema?.$ref !== 'string') inline.push(`${method} ${path} ${where}`);
      }
    }
    expect(inline).toEqual([]);
    expect(Object.keys(document.components.schemas)).toEqual(expect.arrayContaining(REQUIRED_SCHEMAS));
  });

  it('types a party PATCH member by member', () => {
    const patch = document.components.schemas.PartyPatch;
    expect(Object.keys(patch.properties)).toEqual(
      expect.arrayContaining(['first_name', 'name', 'email', 'address', 'risk_objects']),
    );
    expect(patch.properties.email.type).toEqual(['string', 'null']);
    // Absent members keep their value: no default may fill one in.
    expect(JSON.stringify(patch)).not.toContain('"default"');
    const operation = document.paths['/v1/api/distributions/{distribution_id}/parties/{party_id}'].patch;
    expect(Object.keys(operation.requestBody.content)).toEqual(['application/json', 'application/merge-patch+json']);
  });

  it("leaves out the broker app's and the SSO provider's HTML routes", () => {
    const paths = Object.keys(document.paths);
    expect(paths.filter((path) => path.startsWith('/app'))).toEqual([]);
    expect(paths.filter((path) => path.startsWith('/sso'))).toEqual(['/sso/userinfo']);
  });

  it('declares every error status with the error body and an example of that error', () => {
    const push = document.paths['/v1/api/distributions/{distribution_id}/leads/customers'].post;
    expect(Object.keys(push.responses).sort()).toEqual(
      ['200', '201', '400', '401', '403', '404', '409', '413', '415', '422', '429', '500', '503'].sort(),
    );
    const types: Record<string, string> = {};
    for (const [status, response] of Object.entries(push.responses) as Array<[string, any]>) {
      if (Number(status) < 400) continue;
      const media = response.content['application/json'];
      expect(media.schema).toEqual({ $ref: '#/components/schemas/ErrorBody' });
      types[status] = media.example.detail.type;
    }
    expect(types).toEqual({
      '400': 'InvalidJSON',
      '401': 'Unauthenticated',
      '403': 'Forbidden',
      '404': 'NotFound',
      '409': 'Conflict',
      '413': 'PayloadTooLarge',
      '415': 'UnsupportedMediaType',
      '422': 'ValidationError',
      '429': 'RateLimited',
      '500': 'InternalError',
      '503': 'ServiceUnavailable',
    });
    const patch = document.paths['/v1/api/distributions/{distribution_id}/parties/{party_id}'].patch;
    expect(Object.keys(patch.responses)).toEqual(expect.arrayContaining(['400', '409', '412', '413', '415', '422']));
  });
});

describe('every answer of a sequence of real calls is declared (as Prism checks traffic)', () => {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  const validators = new Map<string, ValidateFunction>();
  const undeclared: string[] = [];

  /** Calls the server and records what of its answer the document does not declare. */
  async function call(
    method: string,
    template: string,
    values: Record<string, string>,
    init: { body?: string; headers?: Record<string, string>; query?: string } = {},
  ): Promise<{ status: number; body: any; headers: Headers }> {
    const url = template.replace(/\{(\w+)\}/g, (_, name: string) => values[name]!);
    const response = await fetch(`${server.url}${url}${init.query ?? ''}`, {
      method,
      headers: { authorization: `apikey ${tenant.token}`, ...init.headers },
      ...(init.body !== undefined && { body: init.body }),
    });
    const text = await response.text();
    const body = text ? JSON.parse(text) : undefined;
    const where = `${method} ${template} ${response.status}`;
    const declared = document.paths[template]?.[method.toLowerCase()]?.responses?.[String(response.status)];
    if (!declared) {
      undeclared.push(`${where}: status`);
      return { status: response.status, body, headers: response.headers };
    }
    const names = Object.keys(declared.headers ?? {}).map((name) => name.toLowerCase());
    for (const name of CONTRACT_HEADERS) {
      if (response.headers.has(name) && !names.includes(name)) undeclared.push(`${where}: header ${name}`);
    }
    const schema = declared.content?.['application/json']?.schema;
    if (schema) {
      const key = JSON.stringify(schema);
      if (!validators.has(key)) {
        validators.set(key, ajv.compile({ allOf: [schema], components: document.components }));
      }
      const validate = validators.get(key)!;
      if (!validate(body)) undeclared.push(`${where}: body ${ajv.errorsText(validate.errors)}`);
    }
    return { status: response.status, body, headers: response.headers };
  }

  it('finds nothing undeclared in pushes, reads, updates and refusals', async () => {
    const leads = '/v1/api/distributions/{distribution_id}/leads/customers';
    const did = { distribution_id: tenant.distributionId };
    const json = { 'content-type': 'application/json' };
    const created = await call('POST', leads, did, { body: JSON.stringify(leadExamples.CUSTOMER), headers: json });
    expect(created.status).toBe(201);
    const merged = await call('POST', leads, did, { body: JSON.stringify(leadExamples.CUSTOMER), headers: json });
    expect(merged.status).toBe(200);
    const ids = { ...did, lead_id: created.body.id, party_id: created.body.party_id };
    expect((await call('GET', '/v1/api/distributions/{distribution_id}/leads/{lead_id}', ids)).status).toBe(200);
    expect((await call('GET', '/v1/api/distributions/{distribution_id}/leads', did)).status).toBe(200);
    const party = '/v1/api/distributions/{distribution_id}/parties/{party_id}';
    const read = await call('GET', party, ids);
    expect(read.status).toBe(200);
    const patched = await call('PATCH', party, ids, {
      body: JSON.stringify({ telephonenr: '+32 9 999 99 99' }),
      headers: { ...json, 'if-match': read.headers.get('etag')! },
    });
    expect(patched.status).toBe(200);
    const stale = await call('PATCH', party, ids, {
      body: JSON.stringify({ telephonenr: '+32 9 888 88 88' }),
      headers: { ...json, 'if-match': read.headers.get('etag')! },
    });
    expect(stale.status).toBe(412);
    const lead = '/v1/api/distributions/{distribution_id}/leads/{lead_id}';
    const work = await call('PATCH', lead, ids, { body: JSON.stringify({ status: 'contacted' }), headers: json });
    expect(work.status).toBe(200);

    const refusals: Array<[number, Promise<{ status: number }>]> = [
      [400, call('POST', leads, did, { body: '{"prospect":', headers: json })],
      [401, call('POST', leads, did, { body: '{}', headers: { ...json, authorization: 'apikey wrong' } })],
      [403, call('GET', party, { ...ids, distribution_id: crypto.randomUUID() })],
      [404, call('GET', lead, { ...ids, lead_id: crypto.randomUUID() })],
      [413, call('POST', leads, did, { body: `"${'x'.repeat(2 * 1024 * 1024)}"`, headers: json })],
      [415, call('POST', leads, did, { body: 'first_name=Jan', headers: { 'content-type': 'text/plain' } })],
      [422, call('POST', leads, did, { body: '{"prospect":{}}', headers: json })],
      [422, call('GET', '/v1/api/distributions/{distribution_id}/leads', did, { query: '?limit=1000' })],
      [400, call('PATCH', party, ids, { body: '{"telephonenr":', headers: json })],
      [413, call('PATCH', party, ids, { body: `"${'x'.repeat(2 * 1024 * 1024)}"`, headers: json })],
      [415, call('PATCH', party, ids, { body: 'x', headers: { 'content-type': 'text/plain' } })],
      [422, call('PATCH', party, ids, { body: '{"address":{"zipcode":"12"}}', headers: json })],
    ];
    for (const [status, reply] of refusals) expect((await reply).status).toBe(status);

    // A batch with a refused item (207), a keyed push and its replay, the key reused (422),
    // then the person erased (200), read (410) and pushed again (409 Erased).
    const batch = '/v1/api/distributions/{distribution_id}/leads/batch';
    const items = {
      leads: [
        { type: 'CUSTOMER', ...leadExamples.CUSTOMER },
        { type: 'CUSTOMER', prospect: {} },
      ],
    };
    expect((await call('POST', batch, did, { body: JSON.stringify(items), headers: json })).status).toBe(207);
    const keyed = { ...json, 'idempotency-key': crypto.randomUUID() };
    const once = JSON.stringify({ prospect: { first_name: 'Once', last_name: 'Keyed' } });
    expect((await call('POST', leads, did, { body: once, headers: keyed })).status).toBe(201);
    const replayed = await call('POST', leads, did, { body: once, headers: keyed });
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    const other = JSON.stringify({ prospect: { first_name: 'Other', last_name: 'Keyed' } });
    expect((await call('POST', leads, did, { body: other, headers: keyed })).status).toBe(422);
    const exported = await call('GET', `${party}/export`, ids);
    expect(exported.status).toBe(200);
    expect((await call('DELETE', party, ids)).status).toBe(200);
    expect((await call('GET', party, ids)).status).toBe(410);
    expect((await call('GET', lead, ids)).status).toBe(410);
    const again = JSON.stringify(leadExamples.CUSTOMER);
    expect((await call('POST', leads, did, { body: again, headers: json })).status).toBe(409);

    // A credential of its own spends its window: 429 with Retry-After.
    const spender = await createTenant(server.database.handle, ['leads:read']);
    let last = 0;
    for (let i = 0; i < 41 && last !== 429; i++) {
      const response = await fetch(`${server.url}/v1/api/distributions/${spender.distributionId}/leads`, {
        headers: { authorization: `apikey ${spender.token}` },
      });
      await response.arrayBuffer();
      last = response.status;
      if (last === 429) {
        const declared = document.paths['/v1/api/distributions/{distribution_id}/leads'].get.responses['429'];
        expect(Object.keys(declared.headers)).toEqual(expect.arrayContaining(['Retry-After', 'x-request-id']));
        expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
      }
    }
    expect(last).toBe(429);

    expect(undeclared).toEqual([]);
  });
});

describe('the webhooks section', () => {
  it('lists every event with its signature headers, and describes what a receiver is sent', async () => {
    expect(Object.keys(document.webhooks).sort()).toEqual(
      ['lead.created', 'lead.erased', 'lead.status_changed', 'lead.updated', 'party.merged', 'party.updated'].sort(),
    );
    for (const item of Object.values(document.webhooks) as any[]) {
      expect(item.post.parameters.map((p: any) => `${p.in}:${p.name}`)).toEqual([
        'header:webhook-id',
        'header:webhook-timestamp',
        'header:webhook-signature',
      ]);
    }

    const body = structuredClone(leadExamples.CUSTOMER) as any;
    body.prospect.callbacks = [receiver.url('/document-hooks')];
    body.prospect.external_refs = [{ external_ref: 'doc-1', external_ref_company: 'doc' }];
    body.prospect.email = 'webhook.document@example.be';
    delete body.prospect.risk_objects;
    delete body.prospect.policy_packages;
    delete body.prospect.insurance_policies;
    const pushed = await fetch(`${server.url}/v1/api/distributions/${tenant.distributionId}/leads/customers`, {
      method: 'POST',
      headers: { authorization: `apikey ${tenant.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(pushed.status).toBe(201);
    await receiver.waitFor('/document-hooks', 1);
    // Erasing the person sends the other kind of payload, ids only (docs/design.md section 15).
    const partyId = ((await pushed.json()) as { party_id: string }).party_id;
    const erased = await fetch(`${server.url}/v1/api/distributions/${tenant.distributionId}/parties/${partyId}`, {
      method: 'DELETE',
      headers: { authorization: `apikey ${tenant.token}` },
    });
    expect(erased.status).toBe(200);
    const deliveries = await receiver.waitFor('/document-hooks', 2);
    expect(deliveries.map((delivery) => delivery.json.type)).toEqual(['lead.created', 'lead.erased']);
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    for (const delivery of deliveries) {
      const schema = document.webhooks[delivery.json.type].post.requestBody.content['application/json'].schema;
      for (const described of [schema, { $ref: '#/components/schemas/WebhookEvent' }]) {
        const validate = ajv.compile({ allOf: [described], components: document.components });
        expect(validate(delivery.json) ? [] : validate.errors).toEqual([]);
      }
      for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) {
        expect(delivery.headers[name]).toBeTruthy();
      }
      expect(delivery.headers['webhook-id']).toBe(delivery.json.id);
    }
  });
});
