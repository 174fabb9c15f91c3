// docs/design.md section 8: every URL the provider publishes comes from PUBLIC_URL, never from
// the request. A client that could choose them would make discovery advertise its own
// token endpoint and keys to whoever reads the document through a shared cache or proxy.
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/test-server.ts';
import { rawRequest } from './support/raw-http.ts';
import { authorizationUrl, createSsoFixture, pkcePair } from './support/sso.ts';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const DISCOVERY = '/sso/.well-known/openid-configuration';

/** Every URL-valued member of the discovery document. */
function publishedUrls(document: Record<string, unknown>): string[] {
  return Object.values(document).filter(
    (value): value is string => typeof value === 'string' && /^https?:/.test(value),
  );
}

const FORGED_REQUESTS: Record<string, (path: string) => string[]> = {
  'a forged Host': (path) => [`GET ${path} HTTP/1.1`, 'Host: evil.example', 'Connection: close'],
  'X-Forwarded-Host and -Proto': (path) => [
    `GET ${path} HTTP/1.1`,
    'Host: 127.0.0.1',
    'X-Forwarded-Host: evil.example',
    'X-Forwarded-Proto: https',
    'Connection: close',
  ],
  'RFC 7239 Forwarded': (path) => [
    `GET ${path} HTTP/1.1`,
    'Host: 127.0.0.1',
    'Forwarded: host=evil.example;proto=https',
    'Connection: close',
  ],
  'an absolute-form target': (path) => [
    `GET http://evil.example${path} HTTP/1.1`,
    'Host: evil.example',
    'Connection: close',
  ],
};

describe.each([
  ['TRUST_PROXY=false', 'false'],
  ['TRUST_PROXY=true', 'true'],
])('discovery with %s', (_label, trustProxy) => {
  it.each(Object.keys(FORGED_REQUESTS))('names only PUBLIC_URL whatever %s says', async (name) => {
    server = await startTestServer({ TRUST_PROXY: trustProxy, PUBLIC_URL: 'https://leads.example.com' });
    const answer = await rawRequest(server.url, FORGED_REQUESTS[name]!(DISCOVERY));
    expect(answer.status).toBe(200);
    const urls = publishedUrls(answer.json);
    expect(answer.json).toMatchObject({
      issuer: 'https://leads.example.com/sso',
      token_endpoint: 'https://leads.example.com/sso/token',
      jwks_uri: 'https://leads.example.com/sso/jwks',
      authorization_endpoint: 'https://leads.example.com/sso/auth',
    });
    expect(urls.length).toBeGreaterThan(5);
    for (const url of urls) expect(url).toMatch(/^https:\/\/leads\.example\.com\//);
  });
});

describe('the provider behind the discovery document', () => {
  it('sends the browser on within PUBLIC_URL, with cookies as secure as PUBLIC_URL, whatever the Host', async () => {
    server = await startTestServer({ PUBLIC_URL: 'https://leads.example.com', TRUST_PROXY: 'true' });
    const fixture = await createSsoFixture(server);
    const authorize = new URL(
      authorizationUrl(server, { clientId: fixture.client.client_id, challenge: pkcePair().challenge }),
    );
    const answer = await rawRequest(
      server.url,
      FORGED_REQUESTS['X-Forwarded-Host and -Proto']!(`${authorize.pathname}${authorize.search}`),
    );
    expect(answer.status).toBe(303);
    // The sign-in page, on our own host (a path, or an absolute URL on PUBLIC_URL).
    expect(answer.headers.location).toMatch(
      /^(\/sso\/interaction\/|https:\/\/leads\.example\.com\/sso\/interaction\/)/,
    );
    expect(answer.headers['set-cookie']).toMatch(/secure/i);
  });
});
