// Operational endpoints and the OpenAPI document (docs/design.md section 1, "Operational"),
// through a real server on each database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { Ajv } from 'ajv';
import { default as addFormatsModule } from 'ajv-formats';
import { validate as validateOpenApi } from '@readme/openapi-parser';
import { buildApp } from '../src/app.ts';
import { openDatabase } from '../src/db/database.ts';
import { leadExamples } from '../src/party/index.ts';
import packageJson from '../package.json' with { type: 'json' };
import { startTestServer, type TestServer } from './support/test-server.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const PUBLIC_URL = 'https://leads.example.com';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ PUBLIC_URL });
});
afterAll(async () => {
  await server?.close();
});

describe('GET /healthz', () => {
  it('answers 200 {"status":"ok"} with a request id', async () => {
    const response = await fetch(`${server.url}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
    expect(response.headers.get('x-request-id')).toBeTruthy();
  });
});

describe('GET /readyz', () => {
  it('answers 200 when the database answers', async () => {
    const response = await fetch(`${server.url}/readyz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('answers 503 in the documented error shape when the database is unreachable', async () => {
    // A database that worked and then went away (connections closed under the app).
    const database = openDatabase(server.config);
    await sql`select 1`.execute(database.db);
    await database.close();
    const app = await buildApp({ config: server.config, database });
    try {
      const url = await app.listen({ port: 0, host: '127.0.0.1' });
      const response = await fetch(`${url}/readyz`);
      expect(response.status).toBe(503);
      const body = await response.json();
      expect(body).toEqual({
        detail: {
          type: 'ServiceUnavailable',
          errors: [{ type: 'ServiceUnavailable', target: 'database', message: expect.any(String) }],
          error_str: expect.stringMatching(/^1 error/),
        },
      });
      // The driver's own message stays in the log.
      expect(JSON.stringify(body)).not.toMatch(/destroyed|pool|sqlite/i);
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
    } finally {
      await app.close();
    }
  });
});

describe('GET /metrics', () => {
  const scrape = async (url = server.url) => {
    const response = await fetch(`${url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return response.text();
  };

  it('counts requests by method, route pattern and status code', async () => {
    const healthzSeries = 'lead_intake_http_requests_total{method="GET",route="/healthz",status_code="200"}';
    const before = sampleValue(await scrape(), healthzSeries);
    await fetch(`${server.url}/healthz`);
    await fetch(`${server.url}/healthz`);
    const distributionId = crypto.randomUUID();
    await fetch(`${server.url}/v1/api/distributions/${distributionId}/leads/customers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(leadExamples.CUSTOMER),
    });
    await fetch(`${server.url}/no/such/route/${distributionId}`);

    const text = await scrape();
    expect(sampleValue(text, healthzSeries)).toBe(before + 2);
    expect(text).toContain(
      'lead_intake_http_requests_total{method="POST",route="/v1/api/distributions/:distribution_id/leads/customers",status_code="401"} 1',
    );
    expect(text).toContain('lead_intake_http_requests_total{method="GET",route="unmatched",status_code="404"} 1');
    expect(text).toMatch(
      /lead_intake_http_request_duration_seconds_bucket\{le="0\.005",method="GET",route="\/healthz",status_code="200"\} \d/,
    );
    expect(
      sampleValue(
        text,
        'lead_intake_http_request_duration_seconds_count{method="GET",route="/healthz",status_code="200"}',
      ),
    ).toBe(before + 2);
    // Raw URLs never become label values: one series per route, not per id.
    expect(text).not.toContain(distributionId);
  });

  it('exposes the pushed-leads counter the lead routes increment, and process metrics', async () => {
    server.app.metrics.leadsPushed.inc({ outcome: 'created' });
    server.app.metrics.leadsPushed.inc({ outcome: 'created' });
    server.app.metrics.leadsPushed.inc({ outcome: 'merged' });
    const text = await scrape();
    expect(text).toContain('# TYPE lead_intake_leads_pushed_total counter');
    expect(text).toContain('lead_intake_leads_pushed_total{outcome="created"} 2');
    expect(text).toContain('lead_intake_leads_pushed_total{outcome="merged"} 1');
    expect(text).toContain('process_cpu_user_seconds_total');
  });

  it('keeps each app’s metrics to itself', async () => {
    // A second app in the same process (as tests build them) over the same database.
    const other = await buildApp({ config: server.config, database: server.database.handle });
    try {
      const url = await other.listen({ port: 0, host: '127.0.0.1' });
      const ownBefore = sampleValue(
        await scrape(),
        'lead_intake_http_requests_total{method="GET",route="/readyz",status_code="200"}',
      );
      await fetch(`${url}/readyz`);
      const otherText = await scrape(url);
      expect(
        sampleValue(otherText, 'lead_intake_http_requests_total{method="GET",route="/readyz",status_code="200"}'),
      ).toBe(1);
      expect(otherText).not.toContain('route="/healthz"');
      expect(
        sampleValue(await scrape(), 'lead_intake_http_requests_total{method="GET",route="/readyz",status_code="200"}'),
      ).toBe(ownBefore);
    } finally {
      await other.close();
    }
  });
});

/** The value of one series in a Prometheus text scrape; 0 when the series is absent. */
function sampleValue(text: string, series: string): number {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

describe('GET /openapi.json', () => {
  let document: any;
  beforeAll(async () => {
    const response = await fetch(`${server.url}/openapi.json`);
    expect(response.status).toBe(200);
    document = await response.json();
  });

  it('is a valid OpenAPI 3.1 document describing this service', async () => {
    expect(document.openapi).toBe('3.1.0');
    const result = await validateOpenApi(structuredClone(document));
    expect(result.valid ? [] : result.errors).toEqual([]);
    expect(result.warnings).toEqual([]);
    expect(document.info).toMatchObject({ title: 'lead-intake API', version: packageJson.version });
    expect(document.info.description).toContain('upsert');
    expect(document.servers).toEqual([{ url: PUBLIC_URL }]);
    expect(document.tags.map((tag: { name: string }) => tag.name)).toEqual([
      'leads',
      'parties',
      'users',
      'reference data',
      'webhooks',
      'operations',
      'sso',
    ]);
  });

  it('documents both authorization schemes', () => {
    const { apikey, bearer } = document.components.securitySchemes;
    expect(apikey).toMatchObject({ type: 'apiKey', in: 'header', name: 'Authorization' });
    expect(apikey.description).toContain('apikey <API_TOKEN>');
    expect(bearer).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
  });

  it.each([
    ['customers', 'pushCustomerLead', leadExamples.CUSTOMER],
    ['companies', 'pushCompanyLead', leadExamples.COMPANY],
  ] as const)(
    'describes POST .../leads/%s with its example, which the schema accepts',
    (kind, operationId, example) => {
      const operation = document.paths[`/v1/api/distributions/{distribution_id}/leads/${kind}`].post;
      expect(operation.operationId).toBe(operationId);
      expect(operation.tags).toEqual(['leads']);
      expect(operation.security).toEqual([{ apikey: [] }, { bearer: [] }]);
      const media = operation.requestBody.content['application/json'];
      expect(media.example).toEqual(example);
      const ajv = new Ajv({ strict: false, allErrors: true });
      addFormats(ajv);
      // The body is a $ref to a named component schema (docs/design.md section 16).
      expect(media.schema).toEqual({
        $ref: `#/components/schemas/${kind === 'customers' ? 'CustomerLead' : 'CompanyLead'}`,
      });
      const valid = ajv.validate({ allOf: [media.schema], components: document.components }, media.example);
      expect(ajv.errors ?? []).toEqual([]);
      expect(valid).toBe(true);
      expect(Object.keys(operation.responses)).toEqual(
        expect.arrayContaining(['200', '201', '401', '403', '409', '422']),
      );
      expect(operation.responses['201'].headers.Location).toBeDefined();
      expect(operation.responses['422'].description).toMatch(/^ValidationError/);
    },
  );

  it('describes POST .../leads/batch, whose item schema accepts both example pushes', () => {
    const operation = document.paths['/v1/api/distributions/{distribution_id}/leads/batch'].post;
    expect(operation.operationId).toBe('pushLeadBatch');
    expect(operation.tags).toEqual(['leads']);
    // Named schemas are $refs to components (docs/design.md section 14); resolved here for Ajv.
    const resolve = (node: unknown): unknown => {
      if (Array.isArray(node)) return node.map(resolve);
      if (node === null || typeof node !== 'object') return node;
      const ref = (node as { $ref?: string }).$ref;
      if (ref !== undefined) return resolve(document.components.schemas[ref.replace('#/components/schemas/', '')]);
      return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, resolve(value)]));
    };
    expect(operation.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/LeadBatch',
    });
    const schema = resolve(operation.requestBody.content['application/json'].schema) as object;
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    const batch = {
      leads: [
        { type: 'CUSTOMER', ...leadExamples.CUSTOMER },
        { type: 'COMPANY', ...leadExamples.COMPANY },
      ],
    };
    expect(ajv.validate(schema, batch), JSON.stringify(ajv.errors)).toBe(true);
    expect(ajv.validate(schema, { leads: [{ type: 'COMPANY', ...leadExamples.CUSTOMER }] })).toBe(false);
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '207', '409', '413', '422']));
    expect(operation.responses['207'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/LeadBatchResult',
    });
  });

  it('declares the optional Idempotency-Key header on every write of the API, and on no read', () => {
    const writes: string[] = [];
    for (const [path, operations] of Object.entries<Record<string, any>>(document.paths)) {
      if (!path.startsWith('/v1/api/')) continue;
      for (const [method, operation] of Object.entries(operations)) {
        const header = (operation.parameters ?? []).find(
          (parameter: any) => parameter.in === 'header' && parameter.name === 'idempotency-key',
        );
        if (method === 'get') expect(header, `${method} ${path}`).toBeUndefined();
        else {
          expect(header, `${method} ${path}`).toMatchObject({ required: false });
          writes.push(`${method} ${path}`);
        }
      }
    }
    expect(writes).toEqual(
      expect.arrayContaining([
        'post /v1/api/distributions/{distribution_id}/leads/customers',
        'post /v1/api/distributions/{distribution_id}/leads/batch',
        'patch /v1/api/distributions/{distribution_id}/parties/{party_id}',
      ]),
    );
  });

  it('tags the operational routes and leaves out the documentation routes', () => {
    for (const path of ['/healthz', '/readyz', '/metrics']) {
      expect(document.paths[path].get.tags).toEqual(['operations']);
    }
    expect(Object.keys(document.paths).filter((path) => path.startsWith('/docs') || path === '/openapi.json')).toEqual(
      [],
    );
  });
});
