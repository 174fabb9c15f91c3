// SSO access tokens at userinfo and on the API (docs/design.md sections 4 and 12): the scheme
// in any case, the documented claims, the scope and distribution rules with the
// documented error body, and every check of the JWT (signature, issuer, audience, typ,
// expiry). Tokens that fail one check are signed with the provider's real key, so only
// that check can refuse them.
import { SignJWT, decodeJwt, importJWK, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../src/app.ts';
import { openDatabase, type DatabaseHandle } from '../src/db/database.ts';
import { deleteClient, disableUser, loadSigningKeys, rotateSigningKeys } from '../src/sso/index.ts';
import { insertDistribution } from '../src/distributions/distribution.repository.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';
import { callApi } from './support/api-client.ts';
import { createSsoFixture, signInForTokens, tokenRequest, type SsoFixture } from './support/sso.ts';

let server: TestServer;
let fixture: SsoFixture;
beforeAll(async () => {
  server = await startTestServer();
  fixture = await createSsoFixture(server, undefined, { language: 'nl' });
});
afterAll(async () => {
  await server?.close();
});

// Partners' userinfo calls may also carry `Content-Type: application/json` (and no body).
const userinfo = (token: string | undefined, scheme = 'bearer', method = 'GET', base = server.url) =>
  fetch(`${base}/sso/userinfo`, {
    method,
    headers: {
      'content-type': 'application/json',
      ...(token !== undefined && { authorization: `${scheme} ${token}` }),
    },
    ...(method === 'POST' && { body: '{}' }),
  });

/** An API call with an SSO access token. */
const api = (token: string, method: string, path: string, body?: unknown) =>
  callApi(server, `Bearer ${token}`, method, path, { body });

const LEAD = { prospect: { first_name: 'Lotte', last_name: 'Peeters' } };
const leadsOf = (distributionId: string) => `/distributions/${distributionId}/leads/customers`;

/** A token with the provider's current key and claims of our choosing. */
async function forgedToken(claims: JWTPayload, header: { typ?: string } = {}): Promise<string> {
  const [key] = await loadSigningKeys(server.database.handle.db);
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({
    iss: `${server.url}/sso`,
    aud: `${server.url}/v1/api`,
    sub: fixture.user.id,
    client_id: fixture.client.client_id,
    scope: 'openid api',
    iat: now,
    exp: now + 600,
    jti: 'forged',
    ...claims,
  })
    .setProtectedHeader({ alg: 'RS256', kid: key!.kid, typ: header.typ ?? 'at+jwt' })
    .sign(await importJWK(key!, 'RS256'));
}

describe('GET /sso/userinfo', () => {
  it('answers the documented claims for the bearer scheme in any case, GET or POST', async () => {
    const { access_token: token } = await signInForTokens(server, fixture, 'openid api');
    for (const [scheme, method] of [
      ['bearer', 'GET'],
      ['Bearer', 'GET'],
      ['BEARER', 'POST'],
    ] as const) {
      const response = await userinfo(token, scheme, method);
      expect(response.status, `${scheme} ${method}`).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const claims: any = await response.json();
      expect(Object.keys(claims).sort()).toEqual([
        'bid',
        'country',
        'did',
        'email',
        'language',
        'last_login',
        'locale',
        'role',
        'sub',
        'uid',
        'username',
      ]);
      expect(claims).toEqual({
        sub: fixture.user.id,
        uid: fixture.user.id,
        bid: fixture.user.broker_id,
        did: fixture.distributionId,
        email: fixture.user.email,
        username: fixture.user.username,
        language: 'nl',
        country: 'BE',
        locale: 'nl-BE',
        role: 'broker',
        last_login: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/),
      });
      // The sign-in just now, in UTC without zone.
      expect(Math.abs(Date.parse(`${claims.last_login}Z`) - Date.now())).toBeLessThan(5 * 60_000);
    }
  });

  it('requires the openid scope', async () => {
    const { access_token: token } = await signInForTokens(server, fixture, 'leads:write');
    const response = await userinfo(token);
    expect(response.status).toBe(403);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer .*error="insufficient_scope"/);
    expect(((await response.json()) as any).error).toBe('insufficient_scope');
  });

  it('refuses a missing, malformed or forged token with 401 and WWW-Authenticate', async () => {
    const forged = await forgedToken({});
    const tampered = `${forged.slice(0, -4)}AAAA`;
    for (const token of [undefined, 'not-a-jwt', tampered]) {
      const response = await userinfo(token);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer realm=/);
      expect(((await response.json()) as any).error).toBe('invalid_token');
    }
    expect((await userinfo('x', 'apikey')).status).toBe(401);
  });
});

describe('the OpenAPI document', () => {
  it("documents userinfo with the bearer scheme, and none of the provider's own endpoints", async () => {
    const document: any = await (await fetch(`${server.url}/openapi.json`)).json();
    const ssoPaths = Object.keys(document.paths).filter((path) => path.startsWith('/sso'));
    expect(ssoPaths).toEqual(['/sso/userinfo']);
    expect(Object.keys(document.paths['/sso/userinfo'])).toEqual(['get']);
    expect(document.paths['/sso/userinfo'].get.security).toEqual([{ bearer: [] }]);
    expect(document.components.securitySchemes.bearer).toMatchObject({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
    });
  });
});

describe('bearer tokens on the API', () => {
  it("push leads into the user's distribution and read them with `api`", async () => {
    const { access_token: token } = await signInForTokens(server, fixture, 'openid api');
    const pushed = await api(token, 'POST', leadsOf(fixture.distributionId), LEAD);
    expect(pushed.status).toBe(201);
    const read = await api(token, 'GET', pushed.body.self.replace(`${server.url}/v1/api`, ''));
    expect(read.status).toBe(200);
    const log = await api(token, 'GET', `/distributions/${fixture.distributionId}/leads/${pushed.body.id}/pushes`);
    expect(log.body.items[0].caller).toBe(`user:${fixture.user.id}`);
  });

  it("apply the granted scopes: leads:write pushes, but does not read (403, in the user's language)", async () => {
    const { access_token: token } = await signInForTokens(server, fixture, 'openid leads:write');
    const pushed = await api(token, 'POST', leadsOf(fixture.distributionId), LEAD);
    expect([200, 201]).toContain(pushed.status);
    const read = await api(token, 'GET', `/distributions/${fixture.distributionId}/leads/${pushed.body.id}`);
    expect(read.status).toBe(403);
    expect(read.body.detail).toMatchObject({
      type: 'Forbidden',
      errors: [
        {
          type: 'Forbidden',
          target: 'Authorization',
          message: "De inloggegevens geven geen toegang tot de scope 'leads:read'.",
        },
      ],
    });
  });

  it("refuse another distribution than the user's with 403", async () => {
    const other = await insertDistribution(server.database.handle.db, 'Another distribution');
    const { access_token: token } = await signInForTokens(server, fixture, 'openid api');
    const pushed = await api(token, 'POST', leadsOf(other.id), LEAD);
    expect(pushed.status).toBe(403);
    expect(pushed.body.detail.errors[0]).toMatchObject({ type: 'Forbidden', target: 'distribution_id' });
  });

  it.each([
    ['an expired token', { exp: Math.floor(Date.now() / 1000) - 60, iat: Math.floor(Date.now() / 1000) - 3600 }, {}],
    ['another issuer', { iss: 'https://sso.example.com/sso' }, {}],
    ['another audience', { aud: 'https://api.example.com' }, {}],
    ['an ID token (typ JWT, not at+jwt)', {}, { typ: 'JWT' }],
  ])('refuse %s with 401 in the documented body', async (_case, claims, header) => {
    const valid = await api(await forgedToken({}), 'POST', leadsOf(fixture.distributionId), LEAD);
    expect([200, 201]).toContain(valid.status);
    const refused = await api(await forgedToken(claims, header), 'POST', leadsOf(fixture.distributionId), LEAD);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/Bearer/);
    expect(refused.body.detail).toMatchObject({
      type: 'Unauthenticated',
      errors: [{ type: 'Unauthenticated', target: 'Authorization' }],
    });
  });

  it('stop working at once when the user is disabled or the client deleted', async () => {
    const own = await createSsoFixture(server);
    const tokens = await signInForTokens(server, own);
    expect((await api(tokens.access_token, 'POST', leadsOf(own.distributionId), LEAD)).status).toBe(201);
    await deleteClient(server.database.handle.db, own.client.client_id);
    expect((await api(tokens.access_token, 'POST', leadsOf(own.distributionId), LEAD)).status).toBe(401);

    const second = await createSsoFixture(server);
    const secondTokens = await signInForTokens(server, second);
    await disableUser(server.database.handle.db, second.user.username);
    expect((await api(secondTokens.access_token, 'POST', leadsOf(second.distributionId), LEAD)).status).toBe(401);
    expect((await userinfo(secondTokens.access_token)).status).toBe(401);
    const refresh = await tokenRequest(server, second.client, {
      grant_type: 'refresh_token',
      refresh_token: secondTokens.refresh_token,
    });
    expect(refresh.body.error).toBe('invalid_grant');
  });
});

describe('several processes on one database', () => {
  let other: App;
  let otherDatabase: DatabaseHandle;
  let otherUrl: string;
  beforeAll(async () => {
    // A second process: its own app and connections, the same database and PUBLIC_URL.
    otherDatabase = openDatabase(server.config);
    other = await buildApp({ config: server.config, database: otherDatabase });
    otherUrl = await other.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await other?.close();
    await otherDatabase?.close();
  });

  it('share grants, refresh tokens and keys', async () => {
    const tokens = await signInForTokens(server, fixture);
    expect((await userinfo(tokens.access_token, 'bearer', 'GET', otherUrl)).status).toBe(200);
    const refreshed = await tokenRequest({ ...server, url: otherUrl }, fixture.client, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
    });
    expect(refreshed.status).toBe(200);
    expect((await api(refreshed.body.access_token, 'POST', leadsOf(fixture.distributionId), LEAD)).status).toBeLessThan(
      300,
    );
  });

  it('keep accepting tokens across a key rotation, old and new', async () => {
    const before = await signInForTokens(server, fixture);
    const rotation = await rotateSigningKeys(server.database.handle.db, 3600);
    // A process started after the rotation signs with the new key...
    const restartedDatabase = openDatabase(server.config);
    const restarted = await buildApp({ config: server.config, database: restartedDatabase });
    try {
      const restartedUrl = await restarted.listen({ port: 0, host: '127.0.0.1' });
      const after = await signInForTokens({ ...server, url: restartedUrl }, fixture);
      const kid = JSON.parse(Buffer.from(after.access_token.split('.')[0], 'base64url').toString()).kid;
      expect(kid).toBe(rotation.kid);
      expect(decodeJwt(after.access_token).iss).toBe(`${server.url}/sso`);
      // ...and every process accepts both the old and the new key's tokens.
      for (const base of [server.url, otherUrl, restartedUrl]) {
        for (const token of [before.access_token, after.access_token]) {
          expect((await userinfo(token, 'bearer', 'GET', base)).status).toBe(200);
        }
      }
      const jwks: any = await (await fetch(`${restartedUrl}/sso/jwks`)).json();
      expect(jwks.keys.map((key: { kid: string }) => key.kid)).toEqual([rotation.kid, ...rotation.kept]);
    } finally {
      await restarted.close();
      await restartedDatabase.close();
    }
  });
});
