// Single sign-on across processes (docs/design.md section 9): two server processes on one
// PostgreSQL database, the same PUBLIC_URL, requests alternating between them as a load
// balancer sends them. A code issued by one is redeemed at the other, refreshed and used
// there and back, and both publish the same discovery document.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, dialect, type TestDatabase } from './support/test-server.ts';
import { startServerProcess, type ServerProcess } from './support/server-process.ts';
import {
  authorizationUrl,
  createSsoFixture,
  exchangeCode,
  pkcePair,
  signInAndConsent,
  tokenRequest,
  UserAgent,
  type SsoFixture,
} from './support/sso.ts';

const PUBLIC_URL = 'https://leads.example.test';

let database: TestDatabase;
let fixture: SsoFixture;
let a: ServerProcess;
let b: ServerProcess;

beforeAll(async () => {
  if (dialect !== 'postgres') return;
  database = await createTestDatabase();
  fixture = await createSsoFixture({ database });
  [a, b] = await Promise.all([
    startServerProcess({ ...database.env, PUBLIC_URL }),
    startServerProcess({ ...database.env, PUBLIC_URL }),
  ]);
}, 90_000);
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await database?.drop();
}, 90_000);

it.runIf(dialect === 'postgres')(
  'publishes one discovery document from every process, named by PUBLIC_URL alone',
  async () => {
    const [fromA, fromB] = await Promise.all(
      [a, b].map(async (server) => (await fetch(`${server.url}/sso/.well-known/openid-configuration`)).json()),
    );
    expect(fromA).toEqual(fromB);
    expect(fromA).toMatchObject({ issuer: `${PUBLIC_URL}/sso`, token_endpoint: `${PUBLIC_URL}/sso/token` });
  },
);

it.runIf(dialect === 'postgres')(
  'redeems at one process a code issued by the other, and refreshes and calls userinfo and the API at either',
  async () => {
    const pkce = pkcePair();
    const agent = new UserAgent({ url: a.url, config: { publicUrl: PUBLIC_URL } });
    const redirect = await signInAndConsent(
      agent,
      authorizationUrl(a, { clientId: fixture.client.client_id, challenge: pkce.challenge }),
      fixture.user.username,
    );
    const code = redirect.searchParams.get('code')!;
    expect(code).toBeTruthy();

    const tokens = await exchangeCode(b, fixture.client, code, pkce.verifier);
    expect(tokens.status).toBe(200);

    const refreshed = await tokenRequest(b, fixture.client, {
      grant_type: 'refresh_token',
      refresh_token: tokens.body.refresh_token,
    });
    expect(refreshed.status).toBe(200);
    for (const server of [b, a]) {
      const userinfo = await fetch(`${server.url}/sso/userinfo`, {
        headers: { authorization: `Bearer ${refreshed.body.access_token}` },
      });
      expect(userinfo.status).toBe(200);
      expect(await userinfo.json()).toMatchObject({ sub: fixture.user.id, did: fixture.distributionId });
      const push = await fetch(`${server.url}/v1/api/distributions/${fixture.distributionId}/leads/customers`, {
        method: 'POST',
        headers: { authorization: `bearer ${tokens.body.access_token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ prospect: { first_name: 'Signed', last_name: 'In' } }),
      });
      expect(push.status).toBe(201);
    }
    // Refreshed at a: the refresh token issued by b is good there too.
    const again = await tokenRequest(a, fixture.client, {
      grant_type: 'refresh_token',
      refresh_token: refreshed.body.refresh_token,
    });
    expect(again.status).toBe(200);

    // The code is spent, whichever process is asked again, and its reuse revokes the tokens
    // issued for it (RFC 6749 section 4.1.2), at every process.
    expect((await exchangeCode(a, fixture.client, code, pkce.verifier)).body).toMatchObject({ error: 'invalid_grant' });
    expect(
      (await tokenRequest(b, fixture.client, { grant_type: 'refresh_token', refresh_token: again.body.refresh_token }))
        .body,
    ).toMatchObject({ error: 'invalid_grant' });
  },
);
