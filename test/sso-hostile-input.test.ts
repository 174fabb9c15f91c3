// The single sign-on endpoints under the same rule as the API (docs/design.md section 8): a NUL
// or lone surrogate in a form field, cookie, code or id is a 4xx, never a 500, on SQLite
// as on PostgreSQL (which cannot compare such text at all).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/test-server.ts';
import { createSsoFixture, tokenRequest, type SsoFixture } from './support/sso.ts';

let server: TestServer;
let fixture: SsoFixture;
beforeAll(async () => {
  server = await startTestServer();
  fixture = await createSsoFixture(server);
});
afterAll(async () => server?.close());

const form = (fields: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});

describe('NUL and lone surrogates at the provider', () => {
  it.each([
    [
      'an authorization code',
      {
        grant_type: 'authorization_code',
        code: 'a\u0000b',
        code_verifier: 'x'.repeat(43),
        redirect_uri: 'http://127.0.0.1:9/callback',
      },
    ],
    ['a refresh token', { grant_type: 'refresh_token', refresh_token: 'r\u0000' }],
  ])('%s from a registered client: invalid_grant', async (_name, fields) => {
    const reply = await tokenRequest(server, fixture.client, fields);
    expect(reply.status).toBe(400);
    expect(reply.body.error).toBe('invalid_grant');
  });

  it('a client_id with NUL: invalid_client', async () => {
    const response = await fetch(
      `${server.url}/sso/token`,
      form({ grant_type: 'authorization_code', code: 'x', client_id: 'a\u0000b', client_secret: 'y' }),
    );
    expect(response.status).toBe(401);
  });

  it('an authorization request naming such a client: a 4xx page', async () => {
    const response = await fetch(`${server.url}/sso/auth?client_id=a%00b&response_type=code&scope=openid`);
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
  });

  it('a session cookie with NUL is no session', async () => {
    const response = await fetch(`${server.url}/sso/interaction/abc`, {
      headers: { cookie: '_interaction=a%00b; _session=a%00b' },
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
  });
});

describe('NUL in the sign-in pages', () => {
  it('an interaction id with NUL: 404 page', async () => {
    const response = await fetch(`${server.url}/sso/interaction/%00`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
  });

  it('a login form field with NUL: 422 page, nothing looked up', async () => {
    const response = await fetch(
      `${server.url}/sso/interaction/abc/login`,
      form({ csrf: 'x', login: 'a\u0000b', password: 'p' }),
    );
    expect(response.status).toBe(422);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
  });
});
