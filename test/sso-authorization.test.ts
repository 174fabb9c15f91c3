// The authorization and token endpoints as a partner meets them over HTTP: discovery,
// Authorization Code with PKCE (S256 only, for confidential clients too), and every
// refusal that docs/sso.md, "Single sign-on", lists: no PKCE, `plain`, an unregistered redirect
// URI, a reused code; plus a wrong verifier, a wrong secret and the refresh token rules.
import { createRemoteJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/test-server.ts';
import {
  REDIRECT_URI,
  UserAgent,
  authorizationUrl,
  createSsoFixture,
  exchangeCode,
  pkcePair,
  signInAndConsent,
  signInForTokens,
  tokenRequest,
  type SsoFixture,
} from './support/sso.ts';

let server: TestServer;
let fixture: SsoFixture;
beforeAll(async () => {
  server = await startTestServer();
  fixture = await createSsoFixture(server);
});
afterAll(async () => {
  await server?.close();
});

/** The grant a stored refresh token belongs to. */
async function grantIdOf(refreshToken: string): Promise<string> {
  const row = await server.database.handle.db
    .selectFrom('oidc_payloads')
    .select('grant_id')
    .where('model', '=', 'RefreshToken')
    .where('id', '=', refreshToken)
    .executeTakeFirstOrThrow();
  return row.grant_id!;
}

/** Opens the authorization URL and follows it until it leaves the server (or stops). */
async function authorize(params: Parameters<typeof authorizationUrl>[1]) {
  return new UserAgent(server).follow(authorizationUrl(server, params));
}

/** Signs in and consents; returns the code and the verifier it was requested with. */
async function codeFor(scope = 'openid offline api', extra: Record<string, string> = {}) {
  const pkce = pkcePair();
  const redirect = await signInAndConsent(
    new UserAgent(server),
    authorizationUrl(server, { clientId: fixture.client.client_id, scope, challenge: pkce.challenge, extra }),
    fixture.user.username,
  );
  return { code: redirect.searchParams.get('code')!, verifier: pkce.verifier };
}

describe('discovery', () => {
  it('describes the provider at {PUBLIC_URL}/sso', async () => {
    const response = await fetch(`${server.url}/sso/.well-known/openid-configuration`);
    expect(response.status).toBe(200);
    const issuer = `${server.url}/sso`;
    expect(await response.json()).toMatchObject({
      issuer,
      authorization_endpoint: `${issuer}/auth`,
      token_endpoint: `${issuer}/token`,
      userinfo_endpoint: `${issuer}/userinfo`,
      jwks_uri: `${issuer}/jwks`,
      revocation_endpoint: `${issuer}/token/revocation`,
      end_session_endpoint: `${issuer}/session/end`,
      response_types_supported: ['code'],
      code_challenge_methods_supported: ['S256'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      scopes_supported: expect.arrayContaining([
        'openid',
        'offline',
        'offline_access',
        'api',
        'leads:write',
        'enterprise:read',
        'parties:erase',
      ]),
      ui_locales_supported: ['en', 'nl', 'fr', 'de'],
    });
  });
});

describe('Authorization Code with PKCE', () => {
  it('issues a JWT access token for the API and an ID token, both signed with the published keys', async () => {
    const { code, verifier } = await codeFor();
    const tokens = await exchangeCode(server, fixture.client, code, verifier);
    expect(tokens.status).toBe(200);
    expect(tokens.body).toMatchObject({ token_type: 'Bearer', expires_in: 86_400, scope: 'openid api' });

    const jwks = createRemoteJWKSet(new URL(`${server.url}/sso/jwks`));
    const issuer = `${server.url}/sso`;
    const access = await jwtVerify(tokens.body.access_token, jwks, {
      issuer,
      audience: `${server.url}/v1/api`,
      typ: 'at+jwt',
    });
    expect(access.payload).toMatchObject({
      sub: fixture.user.id,
      client_id: fixture.client.client_id,
      scope: 'openid api',
    });
    expect(access.payload.exp! - access.payload.iat!).toBe(86_400);
    const id = await jwtVerify(tokens.body.id_token, jwks, { issuer, audience: fixture.client.client_id });
    expect(id.payload).toMatchObject({ sub: fixture.user.id, did: fixture.distributionId });
    expect(decodeProtectedHeader(tokens.body.id_token).alg).toBe('RS256');
  });

  it('refuses a request without PKCE, redirecting the error to the client', async () => {
    const reply = await authorize({ clientId: fixture.client.client_id });
    expect(reply.status).toBe(303);
    const location = new URL(reply.headers.get('location')!);
    expect(location.href.startsWith(REDIRECT_URI)).toBe(true);
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('error_description')).toMatch(/PKCE/);
    expect(location.searchParams.has('code')).toBe(false);
  });

  it('refuses the plain method', async () => {
    const pkce = pkcePair();
    const reply = await authorize({ clientId: fixture.client.client_id, challenge: pkce.verifier, method: 'plain' });
    const location = new URL(reply.headers.get('location')!);
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('error_description')).toMatch(/code_challenge_method/);
  });

  it('refuses an unregistered redirect URI without redirecting anywhere', async () => {
    const reply = await authorize({
      clientId: fixture.client.client_id,
      challenge: pkcePair().challenge,
      redirectUri: 'https://evil.example.com/callback',
    });
    expect(reply.status).toBe(400);
    expect(reply.headers.get('location')).toBeNull();
    expect(reply.headers.get('content-type')).toMatch(/^text\/html/);
    expect(reply.body).toMatch(/redirect_uri/);
    expect(reply.body).not.toMatch(/https?:\/\/(?!evil)[^"]*\.(css|js|woff)/);
  });

  it('refuses an unknown client and any response type but code', async () => {
    const unknown = await authorize({ clientId: 'no-such-client', challenge: pkcePair().challenge });
    expect(unknown.status).toBe(400);
    expect(unknown.headers.get('location')).toBeNull();

    const implicit = await authorize({
      clientId: fixture.client.client_id,
      challenge: pkcePair().challenge,
      extra: { response_type: 'token' },
    });
    // A token response type answers in the fragment (its default response mode).
    const fragment = new URLSearchParams(new URL(implicit.headers.get('location')!).hash.slice(1));
    expect(fragment.get('error')).toBe('unsupported_response_type');
  });

  it('refuses a reused code, and revokes what the first exchange issued', async () => {
    const { code, verifier } = await codeFor();
    const first = await exchangeCode(server, fixture.client, code, verifier);
    expect(first.status).toBe(200);
    const second = await exchangeCode(server, fixture.client, code, verifier);
    expect(second.status).toBe(400);
    expect(second.body.error).toBe('invalid_grant');
    // RFC 6749 section 4.1.2: the tokens issued on the code are revoked.
    const refresh = await tokenRequest(server, fixture.client, {
      grant_type: 'refresh_token',
      refresh_token: first.body.refresh_token,
    });
    expect(refresh.body.error).toBe('invalid_grant');
  });

  it('refuses a wrong or missing code verifier', async () => {
    const { code } = await codeFor();
    const wrong = await exchangeCode(server, fixture.client, code, pkcePair().verifier);
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe('invalid_grant');
    const missing = await tokenRequest(server, fixture.client, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
    });
    expect(missing.body.error).toMatch(/invalid_grant|invalid_request/);
  });

  it('authenticates the client by its secret, hashed at rest (basic or post)', async () => {
    const { code, verifier } = await codeFor();
    const wrongSecret = await exchangeCode(
      server,
      { ...fixture.client, client_secret: `${fixture.client.client_secret}x` },
      code,
      verifier,
    );
    expect(wrongSecret.status).toBe(401);
    expect(wrongSecret.body.error).toBe('invalid_client');

    const stored = await server.database.handle.db
      .selectFrom('sso_clients')
      .selectAll()
      .where('id', '=', fixture.client.client_id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(fixture.client.client_secret);

    // client_secret_post with the right secret; the code was not consumed by the failure.
    const response = await fetch(`${server.url}/sso/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        code_verifier: verifier,
        redirect_uri: REDIRECT_URI,
        client_id: fixture.client.client_id,
        client_secret: fixture.client.client_secret,
      }),
    });
    expect(response.status).toBe(200);
  });
});

describe('refresh tokens', () => {
  it('come with offline, and refresh to a new working access token', async () => {
    const tokens = await signInForTokens(server, fixture, 'openid offline leads:read');
    expect(tokens.refresh_token).toEqual(expect.any(String));
    const refreshed = await tokenRequest(server, fixture.client, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
    });
    expect(refreshed.status).toBe(200);
    expect(decodeJwt(refreshed.body.access_token)).toMatchObject({
      sub: fixture.user.id,
      scope: 'openid leads:read',
      aud: `${server.url}/v1/api`,
    });
  });

  it('come with offline_access (with prompt=consent, as OpenID Connect requires)', async () => {
    const { code, verifier } = await codeFor('openid offline_access api', { prompt: 'consent' });
    const tokens = await exchangeCode(server, fixture.client, code, verifier);
    expect(tokens.body.refresh_token).toEqual(expect.any(String));
  });

  it('do not come without offline or offline_access', async () => {
    const tokens = await signInForTokens(server, fixture, 'openid api');
    expect(tokens.access_token).toEqual(expect.any(String));
    expect(tokens.refresh_token).toBeUndefined();
  });

  it('in production never expire (stored without expiry), nor do their grants', async () => {
    const own = await createSsoFixture(server);
    const db = server.database.handle.db;
    const tokens = await signInForTokens(server, own);
    expect(tokens.refresh_token).toEqual(expect.any(String));
    const grantId = await grantIdOf(tokens.refresh_token);
    const rows = await db
      .selectFrom('oidc_payloads')
      .select(['model', 'payload', 'expires_at'])
      .where('model', 'in', ['Grant', 'RefreshToken'])
      .where((eb) => eb.or([eb('grant_id', '=', grantId), eb('id', '=', grantId)]))
      .execute();
    expect(rows.map((row) => row.model).sort()).toEqual(['Grant', 'RefreshToken']);
    for (const row of rows) {
      expect(row.expires_at).toBeNull();
      expect(JSON.parse(row.payload).exp).toBeUndefined();
    }
  });

  it('are absent without offline, and then the grant is kept for a day only', async () => {
    const own = await createSsoFixture(server);
    const db = server.database.handle.db;
    await signInForTokens(server, own, 'openid api');
    const grants = await db
      .selectFrom('oidc_payloads')
      .select(['payload', 'expires_at'])
      .where('model', '=', 'Grant')
      .execute();
    const grant = grants.find((row) => JSON.parse(row.payload).accountId === own.user.id)!;
    const lifetime = Date.parse(grant.expires_at!) - Date.now();
    expect(lifetime).toBeGreaterThan(23 * 3_600_000);
    expect(lifetime).toBeLessThanOrEqual(24 * 3_600_000);
  });

  it('stop working once revoked at the revocation endpoint', async () => {
    const tokens = await signInForTokens(server, fixture);
    const basic = Buffer.from(`${fixture.client.client_id}:${fixture.client.client_secret}`).toString('base64');
    const revoked = await fetch(`${server.url}/sso/token/revocation`, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: tokens.refresh_token, token_type_hint: 'refresh_token' }),
    });
    expect(revoked.status).toBe(200);
    const refresh = await tokenRequest(server, fixture.client, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
    });
    expect(refresh.body.error).toBe('invalid_grant');
  });
});

describe('token lifetimes', () => {
  it('are 2 h for access and 8 h for refresh tokens on staging', async () => {
    const staging = await startTestServer({ TOKEN_PROFILE: 'staging' });
    try {
      const stagingFixture = await createSsoFixture(staging);
      const before = Date.now();
      const tokens = await signInForTokens(staging, stagingFixture);
      expect(tokens.expires_in).toBe(7200);
      const { exp, iat } = decodeJwt(tokens.access_token);
      expect(exp! - iat!).toBe(7200);
      const row = await staging.database.handle.db
        .selectFrom('oidc_payloads')
        .select('expires_at')
        .where('model', '=', 'RefreshToken')
        .executeTakeFirstOrThrow();
      const lifetime = Date.parse(row.expires_at!) - before;
      expect(lifetime).toBeGreaterThan(8 * 3_600_000 - 60_000);
      expect(lifetime).toBeLessThan(8 * 3_600_000 + 60_000);
    } finally {
      await staging.close();
    }
  });
});
