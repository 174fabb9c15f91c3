// The login and consent pages over HTTP (docs/design.md section 12): one answer for an unknown
// login and a wrong password, CSRF tokens, rate-limited failures, the four languages, a
// strict Content-Security-Policy with nothing loaded from elsewhere, and a consent that
// can be refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/test-server.ts';
import {
  PASSWORD,
  REDIRECT_URI,
  UserAgent,
  authorizationUrl,
  createSsoFixture,
  formAction,
  inputValue,
  pkcePair,
  type PageReply,
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

/** A fresh browser on the login page of a new authorization request. */
async function openLogin(scope = 'openid api', extra: Record<string, string> = {}) {
  const agent = new UserAgent(server);
  const page = await agent.follow(
    authorizationUrl(server, { clientId: fixture.client.client_id, scope, challenge: pkcePair().challenge, extra }),
  );
  expect(page.status).toBe(200);
  return { agent, page };
}

function submitLogin(
  agent: UserAgent,
  page: PageReply,
  login: string,
  password: string,
  csrf = inputValue(page.body, 'csrf')!,
) {
  return agent.follow(formAction(page, '/login'), { form: { csrf, login, password } });
}

const alert = (page: PageReply) => /<p class="error" role="alert">([^<]*)<\/p>/.exec(page.body)?.[1];

describe('the login page', () => {
  it('is self-contained under a strict Content-Security-Policy', async () => {
    const { page } = await openLogin();
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toMatch(/default-src 'none'/);
    expect(csp).toMatch(/style-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(csp).toMatch(/frame-ancestors 'none'/);
    expect(csp).toContain(`form-action 'self' ${new URL(REDIRECT_URI).origin}`);
    expect(page.headers.get('cache-control')).toBe('no-store');
    // No scripts, no external style sheets, images or fonts.
    expect(page.body).not.toMatch(/<script|<link|<img|@import|url\(/i);
    expect(page.body).toContain('Partner CRM');
  });

  it('gives the same answer for an unknown login and a wrong password', async () => {
    const wrongPassword = await openLogin();
    const unknownUser = await openLogin();
    const a = await submitLogin(wrongPassword.agent, wrongPassword.page, fixture.user.username, 'wrong password!');
    const b = await submitLogin(unknownUser.agent, unknownUser.page, 'nobody@example.be', 'wrong password!');
    expect(a.status).toBe(401);
    expect(b.status).toBe(401);
    expect(alert(a)).toBe('The e-mail address, username or password is not correct.');
    expect(alert(b)).toBe(alert(a));
    // The login is kept in the form, never the password.
    expect(inputValue(b.body, 'login')).toBe('nobody@example.be');
    expect(b.body).not.toContain('wrong password!');
  });

  it('accepts the e-mail address or the username, in any case', async () => {
    for (const login of [fixture.user.email.toUpperCase(), fixture.user.username.toUpperCase()]) {
      const { agent, page } = await openLogin();
      const next = await submitLogin(agent, page, login, PASSWORD);
      expect(next.status).toBe(200);
      expect(next.body).toContain('name="decision"');
    }
  });

  it('refuses a form without the right CSRF token, and signs nobody in', async () => {
    const { agent, page } = await openLogin();
    for (const csrf of ['', 'forged-token', inputValue(page.body, 'csrf')!.slice(1)]) {
      const refused = await submitLogin(agent, page, fixture.user.username, PASSWORD, csrf);
      expect(refused.status).toBe(403);
      expect(alert(refused)).toMatch(/expired/);
      expect(refused.body).not.toContain('name="decision"');
    }
    // Another browser's token is no good either: it belongs to another interaction.
    const other = await openLogin();
    const crossed = await submitLogin(
      agent,
      page,
      fixture.user.username,
      PASSWORD,
      inputValue(other.page.body, 'csrf'),
    );
    expect(crossed.status).toBe(403);
  });

  it('refuses a post for an interaction this browser did not start', async () => {
    const { page } = await openLogin();
    const stranger = new UserAgent(server);
    const reply = await stranger.follow(formAction(page, '/login'), {
      form: { csrf: inputValue(page.body, 'csrf')!, login: 'x', password: 'y' },
    });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatch(/expired or is not valid/);
  });

  it('rate limits failed logins per account, even with the right password afterwards', async () => {
    const own = await createSsoFixture(server);
    const { agent, page } = await openLogin();
    let current = page;
    for (let attempt = 1; attempt <= 5; attempt++) {
      current = await submitLogin(agent, current, own.user.username, `wrong password ${attempt}`);
      expect(current.status).toBe(401);
    }
    const limited = await submitLogin(agent, current, own.user.username, PASSWORD);
    expect(limited.status).toBe(429);
    expect(alert(limited)).toMatch(/Too many failed attempts/);
    // Another account from the same address is not affected.
    const other = await openLogin();
    expect((await submitLogin(other.agent, other.page, fixture.user.username, PASSWORD)).status).toBe(200);
    // The failures are in the database, where every process counts them.
    const stored = await server.database.handle.db.selectFrom('sso_login_failures').select('subject').execute();
    expect(stored.filter((row) => row.subject === `account:${own.user.username}`)).toHaveLength(5);
  });

  it('lets the account sign in again once its failures have left the window', async () => {
    const own = await createSsoFixture(server);
    const { agent, page } = await openLogin();
    let current = page;
    for (let attempt = 1; attempt <= 5; attempt++) {
      current = await submitLogin(agent, current, own.user.username, `wrong password ${attempt}`);
    }
    const limited = await submitLogin(agent, current, own.user.username, PASSWORD);
    expect(limited.status).toBe(429);
    // The server's clock, not the test, waits out the 15 minutes (docs/sso.md).
    server.clock.advance(15 * 60_000);
    expect((await submitLogin(agent, limited, own.user.username, PASSWORD)).status).toBe(200);
  });

  it.each([
    ['ui_locales', { ui_locales: 'fr-BE en' }, 'Connexion'],
    ['ui_locales', { ui_locales: 'de' }, 'Anmelden'],
    ['ui_locales', { ui_locales: 'nl' }, 'Aanmelden'],
    ['the default', {}, 'Sign in'],
  ])('speaks the language of %s (%o)', async (_source, extra, title) => {
    const { page } = await openLogin('openid api', extra);
    expect(page.body).toContain(`<h1>${title}</h1>`);
  });
});

describe('the consent page', () => {
  async function openConsent(scope: string) {
    const { agent, page } = await openLogin(scope);
    const consent = await submitLogin(agent, page, fixture.user.username, PASSWORD);
    expect(consent.status).toBe(200);
    return { agent, consent };
  }

  it('lists the requested scopes in plain words', async () => {
    const { consent } = await openConsent('openid offline leads:write parties:read vehicle:read');
    const items = [...consent.body.matchAll(/<li>([^<]*)<\/li>/g)].map((match) => match[1]);
    expect(items).toEqual([
      'know who you are: your e-mail address, username, language, country, role, broker and distribution',
      'keep this access when you are not using the application, until you revoke it',
      'push leads into your distribution',
      'read prospects and their risk objects',
      'look up vehicles in the vehicle database',
    ]);
    expect(consent.body).toContain(`Signed in as ${fixture.user.username}`);
  });

  it('sends access_denied to the client when the user denies', async () => {
    const { agent, consent } = await openConsent('openid api');
    const denied = await agent.follow(formAction(consent, '/consent'), {
      form: { csrf: inputValue(consent.body, 'csrf')!, decision: 'deny' },
    });
    const location = new URL(denied.headers.get('location')!);
    expect(location.href.startsWith(REDIRECT_URI)).toBe(true);
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.has('code')).toBe(false);
  });

  it('refuses a consent without the CSRF token', async () => {
    const { agent, consent } = await openConsent('openid api');
    const refused = await agent.follow(formAction(consent, '/consent'), { form: { decision: 'allow' } });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('location')).toBeNull();
  });
});

describe('cancelling', () => {
  it('sends access_denied to the client', async () => {
    const { agent, page } = await openLogin();
    const cancelled = await agent.follow(formAction(page, '/abort'), {
      form: { csrf: inputValue(page.body, 'csrf')! },
    });
    expect(new URL(cancelled.headers.get('location')!).searchParams.get('error')).toBe('access_denied');
  });
});

describe('signing out (end-session)', () => {
  it('asks on our own page, then ends the session so the next sign-in asks for the password again', async () => {
    const { agent, page } = await openLogin();
    const consent = await submitLogin(agent, page, fixture.user.username, PASSWORD);
    await agent.follow(formAction(consent, '/consent'), {
      form: { csrf: inputValue(consent.body, 'csrf')!, decision: 'allow' },
    });
    // Signed in: a new authorization goes straight back to the client.
    const again = await agent.follow(
      authorizationUrl(server, {
        clientId: fixture.client.client_id,
        scope: 'openid api',
        challenge: pkcePair().challenge,
      }),
    );
    expect(new URL(again.headers.get('location')!).searchParams.has('code')).toBe(true);

    const question = await agent.follow(`${server.url}/sso/session/end`);
    expect(question.status).toBe(200);
    expect(question.body).toContain('<h1>Sign out</h1>');
    expect(question.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    expect(question.body).not.toMatch(/<script|@import|url\(/i);
    const signedOut = await agent.follow(formAction(question, '/session/end/confirm'), {
      form: { xsrf: inputValue(question.body, 'xsrf')!, logout: 'yes' },
    });
    expect(signedOut.body).toContain('You are signed out.');

    const afterwards = await agent.follow(
      authorizationUrl(server, {
        clientId: fixture.client.client_id,
        scope: 'openid api',
        challenge: pkcePair().challenge,
      }),
    );
    expect(afterwards.status).toBe(200);
    expect(afterwards.body).toContain('name="password"');
  });
});
