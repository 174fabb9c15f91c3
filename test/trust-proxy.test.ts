// TRUST_PROXY decides whose word counts for the client's address. The SSO login throttle
// counts failures per address, so a client talking to the service directly must not be
// able to pick a fresh address for every attempt with X-Forwarded-For.
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';
import { UserAgent, authorizationUrl, createSsoFixture, formAction, inputValue, pkcePair } from './support/sso.ts';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** One failed sign-in that claims to come from `forwardedFor`; returns the addresses the throttle recorded. */
async function failedLoginFrom(env: Record<string, string>, forwardedFor: string): Promise<string[]> {
  server = await startTestServer(env);
  const fixture = await createSsoFixture(server);
  const agent = new UserAgent(server);
  const page = await agent.follow(
    authorizationUrl(server, {
      clientId: fixture.client.client_id,
      scope: 'openid api',
      challenge: pkcePair().challenge,
    }),
  );
  const reply = await agent.follow(formAction(page, '/login'), {
    form: { csrf: inputValue(page.body, 'csrf')!, login: fixture.user.username, password: 'not the password' },
    headers: { 'x-forwarded-for': forwardedFor },
  });
  expect(reply.status).toBe(401);
  const rows = await server.database.handle.db.selectFrom('sso_login_failures').select('subject').execute();
  return rows.map((row) => row.subject).filter((subject) => subject.startsWith('ip:'));
}

describe('TRUST_PROXY', () => {
  it('ignores X-Forwarded-For by default: failures count against the real peer address', async () => {
    expect(await failedLoginFrom({}, '203.0.113.7')).toEqual(['ip:127.0.0.1']);
  });

  it('believes X-Forwarded-For from a listed proxy', async () => {
    expect(await failedLoginFrom({ TRUST_PROXY: '127.0.0.1/32, ::1' }, '203.0.113.7')).toEqual(['ip:203.0.113.7']);
  });

  it('refuses a value that is not an address list', () => {
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/8, the load balancer' })).toThrow(
      /TRUST_PROXY="10.0.0.0\/8, the load balancer": must be true, false, or proxy addresses/,
    );
  });
});
