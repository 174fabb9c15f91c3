// Behind a TLS-terminating proxy (PUBLIC_URL https, TRUST_PROXY on), every URL the broker
// app sends the browser to comes from PUBLIC_URL: forwarded or Host headers a client makes
// up change neither the provider it is sent to nor the redirect URI it returns on
// (docs/design.md section 8). The whole sign-in works through that setup.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Broker, createBroker, openSignedIn, UserAgent } from './support/broker-app.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

const PUBLIC_URL = 'https://leads.example.test';
let server: TestServer;
let broker: Broker;

beforeAll(async () => {
  server = await startTestServer({ PUBLIC_URL, TRUST_PROXY: 'true' });
  broker = await createBroker(server);
});
afterAll(async () => server?.close());

describe('the broker app behind a proxy', () => {
  it('builds the sign-in redirect from PUBLIC_URL, whatever the forwarded headers say', async () => {
    const reply = await fetch(`${server.url}/app/login?return_to=%2Fapp`, {
      redirect: 'manual',
      headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http' },
    });
    expect(reply.status).toBe(303);
    const location = new URL(reply.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(`${PUBLIC_URL}/sso/auth`);
    expect(location.searchParams.get('redirect_uri')).toBe(`${PUBLIC_URL}/app/callback`);
  });

  it('signs in end to end and lands on the page asked for', async () => {
    const agent = new UserAgent(server);
    const landed = await openSignedIn(agent, `${PUBLIC_URL}/app?q=nobody`, broker.user.username);
    expect(landed.status).toBe(200);
    expect(landed.url).toBe(`${PUBLIC_URL}/app?q=nobody`);
    expect(landed.body).toContain('No lead matches “nobody”.');
  });
});
