// Single sign-on end to end, as a broker meets it: a real headless Chromium (from npm,
// driven by playwright-core: test/support/browser.ts) opens a partner's authorization URL, signs in on
// our page, consents, and lands on the partner's redirect URI (a loopback server) with a
// code. The partner's backend then exchanges the code, calls userinfo, pushes a lead
// with the bearer token and refreshes it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium } from './support/browser.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';
import {
  PASSWORD,
  authorizationUrl,
  createSsoFixture,
  exchangeCode,
  pkcePair,
  tokenRequest,
  type SsoFixture,
} from './support/sso.ts';

/** The partner's redirect URI: records what arrives and shows a plain page. */
interface RedirectReceiver {
  readonly uri: string;
  readonly received: URL[];
  close(): Promise<void>;
}

async function startRedirectReceiver(): Promise<RedirectReceiver> {
  const received: URL[] = [];
  const server = http.createServer((request, response) => {
    received.push(new URL(request.url!, 'http://127.0.0.1'));
    response
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<!doctype html><title>Partner CRM</title><p>Signed in</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    uri: `http://127.0.0.1:${port}/callback`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

let server: TestServer;
let receiver: RedirectReceiver;
let fixture: SsoFixture;
let browser: Browser;

beforeAll(async () => {
  [server, receiver] = await Promise.all([startTestServer(), startRedirectReceiver()]);
  fixture = await createSsoFixture(server, receiver.uri, { language: 'nl' });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await receiver?.close();
  await server?.close();
});

const push = (accessToken: string, scheme: string) =>
  fetch(`${server.url}/v1/api/distributions/${fixture.distributionId}/leads/customers`, {
    method: 'POST',
    headers: { authorization: `${scheme} ${accessToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      origin: 'partner-crm',
      prospect: {
        first_name: 'Els',
        last_name: 'Claes',
        external_refs: [{ external_ref: '7', external_ref_company: 'crm' }],
      },
    }),
  });

describe('single sign-on in a browser', () => {
  it('signs in, consents, and gives the partner tokens that work on userinfo and the API', async () => {
    const context = await browser.newContext({ locale: 'nl-BE' });
    const page = await context.newPage();
    const requested: string[] = [];
    const problems: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      // A Content-Security-Policy violation ("Refused to apply inline style ..."); the
      // wrong password's 401 and a missing favicon are expected "Failed to load" errors.
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
        problems.push(message.text());
    });

    const pkce = pkcePair();
    const url = authorizationUrl(server, {
      clientId: fixture.client.client_id,
      redirectUri: receiver.uri,
      scope: 'openid offline leads:write leads:read',
      challenge: pkce.challenge,
    });
    const state = new URL(url).searchParams.get('state');

    // Login challenge, in Dutch (the browser's language); a wrong password first.
    await page.goto(url);
    await expect(page.locator('h1').innerText()).resolves.toBe('Aanmelden');
    await expect(page.locator('main p').first().innerText()).resolves.toContain('Partner CRM');
    await page.fill('#login', fixture.user.email);
    await page.fill('#password', 'not the password');
    await page.click('button[type=submit]:not(.secondary)');
    await expect(page.locator('[role=alert]').innerText()).resolves.toBe(
      'Het e-mailadres, de gebruikersnaam of het wachtwoord is niet juist.',
    );
    // The inline style sheet applies: its hash is in the Content-Security-Policy.
    const background = await page
      .locator('button[type=submit]:not(.secondary)')
      .evaluate((button) => button.ownerDocument.defaultView!.getComputedStyle(button).backgroundColor);
    expect(background).toBe('rgb(29, 78, 216)');

    await page.fill('#password', PASSWORD);
    await page.click('button[type=submit]:not(.secondary)');

    // Consent challenge: the requested scopes in plain words.
    await expect(page.locator('h1').innerText()).resolves.toBe('Toegang toestaan');
    const scopes = await page.locator('li').allInnerTexts();
    expect(scopes).toEqual([
      expect.stringMatching(/^te weten wie je bent/),
      expect.stringMatching(/^deze toegang te behouden/),
      'leads in je distributie te plaatsen',
      'je leads te lezen',
    ]);
    await Promise.all([page.waitForURL(`${receiver.uri}?**`), page.click('button[value=allow]')]);

    // The partner's redirect URI got the code.
    // (The browser may also ask the partner's server for /favicon.ico.)
    const callbacks = receiver.received.filter((received) => received.pathname === '/callback');
    expect(callbacks).toHaveLength(1);
    const callback = callbacks[0]!;
    expect(callback.searchParams.get('state')).toBe(state);
    expect(callback.searchParams.get('iss')).toBe(`${server.url}/sso`);
    const code = callback.searchParams.get('code')!;
    expect(code).toBeTruthy();

    // Nothing came from anywhere but the service and the partner; no CSP violation.
    const origins = new Set(requested.map((request) => new URL(request).origin));
    expect([...origins].sort()).toEqual([new URL(receiver.uri).origin, new URL(server.url).origin].sort());
    expect(problems).toEqual([]);
    await context.close();

    // The partner's backend: code exchange (client_secret_basic, PKCE verifier).
    const tokens = await exchangeCode(server, fixture.client, code, pkce.verifier, receiver.uri);
    expect(tokens.status).toBe(200);
    expect(tokens.body).toMatchObject({
      token_type: 'Bearer',
      expires_in: 86_400,
      scope: 'openid leads:write leads:read',
    });
    expect(tokens.body.refresh_token).toEqual(expect.any(String));

    const userinfo = await fetch(`${server.url}/sso/userinfo`, {
      headers: { authorization: `bearer ${tokens.body.access_token}` },
    });
    expect(userinfo.status).toBe(200);
    const claims = await userinfo.json();
    expect(claims).toMatchObject({
      sub: fixture.user.id,
      uid: fixture.user.id,
      did: fixture.distributionId,
      email: fixture.user.email,
      role: 'broker',
    });

    // The bearer token pushes leads into the user's distribution, whatever the scheme's case.
    expect((await push(tokens.body.access_token, 'bearer')).status).toBe(201);
    expect((await push(tokens.body.access_token, 'Bearer')).status).toBe(200);
    expect((await push(tokens.body.access_token, 'BEARER')).status).toBe(200);

    // Refresh: a new access token that works too.
    const refreshed = await tokenRequest(server, fixture.client, {
      grant_type: 'refresh_token',
      refresh_token: tokens.body.refresh_token,
    });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.access_token).not.toBe(tokens.body.access_token);
    expect((await push(refreshed.body.access_token, 'bearer')).status).toBe(200);
  });
});
