// Every non-2xx answer has the documented body and an x-request-id (docs/design.md section 3).
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { ValidationError } from '../src/errors.ts';
import { createTenant, startTestServer, type Tenant, type TestServer } from './support/test-server.ts';

const BODY_LIMIT = 2048;
let server: TestServer;
let tenant: Tenant;

beforeAll(async () => {
  server = await startTestServer({ BODY_LIMIT: String(BODY_LIMIT) });
  tenant = await createTenant(server.database.handle);
});
afterAll(async () => server?.close());

const leadsUrl = () => `${server.url}/v1/api/distributions/${tenant.distributionId}/leads/customers`;
const auth = () => ({ authorization: `apikey ${tenant.token}` });
const validLead = { prospect: { first_name: 'Jan', last_name: 'Peeters' } };

async function call(url: string, init: RequestInit = {}) {
  const response = await fetch(url, init);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  return { status: response.status, headers: response.headers, body: (await response.json()) as any };
}

/** The documented body of a one-entry error. */
function oneError(type: string, target: string, message: string, subject = 'Request') {
  return {
    detail: {
      type,
      errors: [{ type, target, message }],
      error_str: `1 error for ${subject}\n${target || '(request)'}\n  ${message}`,
    },
  };
}

describe('400 InvalidJSON', () => {
  const invalidJson = oneError('InvalidJSON', '', 'The request body is not valid JSON.');

  it.each([
    ['malformed JSON', '{"prospect": {'],
    ['an empty body', ''],
    ['a __proto__ key', '{"prospect": {"first_name": "Jan", "last_name": "P"}, "__proto__": {"admin": true}}'],
    ['a constructor.prototype key', '{"constructor": {"prototype": {"admin": true}}}'],
  ])('for %s', async (_, body) => {
    const answer = await call(leadsUrl(), {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json' },
      body,
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(invalidJson);
  });
});

describe('401 and 403 come before the body is looked at', () => {
  it('401 with WWW-Authenticate for a request without credentials and with a malformed body', async () => {
    const answer = await call(leadsUrl(), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{',
    });
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toMatch(/apikey/i);
    expect(answer.body).toEqual(
      oneError('Unauthenticated', 'Authorization', 'The credentials are missing or not valid.'),
    );
  });

  it('403 for another distribution, in the language asked for', async () => {
    const other = await createTenant(server.database.handle);
    const answer = await call(`${server.url}/v1/api/distributions/${other.distributionId}/leads/customers`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json', 'accept-language': 'fr' },
      body: JSON.stringify({ nonsense: true }),
    });
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual(
      oneError('Forbidden', 'distribution_id', 'Les identifiants ne donnent pas accès à cette distribution.'),
    );
  });
});

describe('404 NotFound', () => {
  const notFound = oneError('NotFound', '', 'The requested resource was not found.');

  it('for an unknown route', async () => {
    const answer = await call(`${server.url}/v1/api/nothing-here`);
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual(notFound);
  });

  it('for a URL that cannot be decoded', async () => {
    const answer = await call(`${server.url}/v1/api/distributions/%zz/leads`);
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual(notFound);
  });

  it('for a method the route does not have', async () => {
    const answer = await call(leadsUrl(), { method: 'DELETE', headers: auth() });
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual(notFound);
  });

  it('in Dutch for nl-BE', async () => {
    const answer = await call(`${server.url}/nothing-here`, { headers: { 'accept-language': 'nl-BE' } });
    expect(answer.body).toEqual(oneError('NotFound', '', 'De gevraagde resource werd niet gevonden.'));
  });
});

describe('413 PayloadTooLarge', () => {
  it('for a body over BODY_LIMIT', async () => {
    const body = JSON.stringify({ prospect: { first_name: 'J'.repeat(BODY_LIMIT), last_name: 'P' } });
    const answer = await call(leadsUrl(), {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json' },
      body,
    });
    expect(answer.status).toBe(413);
    expect(answer.body).toEqual(
      oneError('PayloadTooLarge', '', `The request body exceeds the maximum size. (${BODY_LIMIT} bytes)`),
    );
  });
});

describe('415 UnsupportedMediaType', () => {
  const unsupported = oneError(
    'UnsupportedMediaType',
    'Content-Type',
    'The request body must be sent as application/json.',
  );

  it.each([
    ['no Content-Type and no body', undefined, undefined],
    ['no Content-Type', undefined, new TextEncoder().encode(JSON.stringify(validLead))],
    ['text/plain', 'text/plain', JSON.stringify(validLead)],
    ['application/xml', 'application/xml', '<lead/>'],
    ['form data', 'application/x-www-form-urlencoded', 'prospect=1'],
    // A merge patch is what a PATCH takes (docs/errors.md), not a push.
    ['application/merge-patch+json', 'application/merge-patch+json', JSON.stringify(validLead)],
  ])('for %s', async (_, contentType, body) => {
    const headers: Record<string, string> = { ...auth(), ...(contentType && { 'content-type': contentType }) };
    const answer = await call(leadsUrl(), { method: 'POST', headers, ...(body !== undefined && { body }) });
    expect(answer.status).toBe(415);
    expect(answer.body).toEqual(unsupported);
  });

  it('but takes application/json with a charset', async () => {
    const answer = await call(leadsUrl(), {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ prospect: {} }),
    });
    expect(answer.status).toBe(422);
  });
});

// An app of our own, with routes that fail on purpose, over the server's database: a 500
// cannot be provoked through the real routes.
describe('errors raised inside the app', () => {
  let app: App;
  const logLines: string[] = [];

  beforeAll(async () => {
    const config = loadConfig({ ...server.database.env, LOG_LEVEL: 'silent' });
    const stream = new Writable({
      write(chunk, _encoding, done) {
        logLines.push(String(chunk));
        done();
      },
    });
    app = await buildApp({ config, database: server.database.handle, logger: { level: 'error', stream } });
    app.get('/test/boom', async () => {
      throw new Error('select secret from parties where id = 1');
    });
    app.get('/test/rate-limited', async () => {
      throw Object.assign(new Error('Rate limit exceeded'), { statusCode: 429 });
    });
    app.get(
      '/test/sso-user',
      {
        onRequest: async (request) => {
          request.caller = {
            kind: 'user',
            id: 'u1',
            distributionId: 'd1',
            scopes: ['api'],
            language: 'de',
            clientId: 'c1',
          };
        },
      },
      async () => {
        throw new ValidationError(
          [{ target: 'prospect.risk_objects.cars.0.id', code: 'unknown_reference' }],
          'CustomerLead',
        );
      },
    );
    await app.ready();
  });
  afterAll(async () => app?.close());

  it('500 InternalError: a generic message, nothing of the cause, the error logged with the request id', async () => {
    const answer = await app.inject({ method: 'GET', url: '/test/boom' });
    expect(answer.statusCode).toBe(500);
    const requestId = answer.headers['x-request-id'];
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(answer.json()).toEqual(
      oneError('InternalError', '', 'An unexpected error occurred. Please try again later.'),
    );
    expect(answer.body).not.toMatch(/select|secret|parties|at .*\.ts/);
    const logged = logLines.map((line) => JSON.parse(line)).find((entry) => entry.reqId === requestId);
    expect(logged?.err?.message).toBe('select secret from parties where id = 1');
    expect(logged?.err?.stack).toMatch(/errors\.test\.ts/);
  });

  it('429 RateLimited for an error with status 429', async () => {
    const answer = await app.inject({ method: 'GET', url: '/test/rate-limited', headers: { 'accept-language': 'nl' } });
    expect(answer.statusCode).toBe(429);
    expect(answer.json()).toEqual(oneError('RateLimited', '', 'Te veel verzoeken. Probeer het later opnieuw.'));
  });

  it("an SSO user's own language wins over Accept-Language", async () => {
    const answer = await app.inject({ method: 'GET', url: '/test/sso-user', headers: { 'accept-language': 'nl' } });
    expect(answer.statusCode).toBe(422);
    const message = "Fehler für 'id'. Der angegebene Wert verweist auf kein bekanntes Objekt.";
    expect(answer.json()).toEqual({
      detail: {
        type: 'ValidationError',
        errors: [{ type: 'ValidationError', target: 'prospect.risk_objects.cars.0.id', message }],
        error_str: `1 validation error for CustomerLead\nprospect.risk_objects.cars.0.id\n  ${message}`,
      },
    });
  });
});
