// Single sign-on from a partner's side, over real HTTP: PKCE pairs (node:crypto), the
// authorization URL, a cookie-keeping user agent that signs in and consents through the
// server-rendered forms, and the token endpoint calls a partner's backend makes.
import { createHash, randomBytes } from 'node:crypto';
import { insertDistribution } from '../../src/distributions/distribution.repository.ts';
import { createClient, createUser, type IssuedClient, type UserListing } from '../../src/sso/index.ts';
import type { TestServer } from './test-server.ts';
import type { ApiReply } from './api-client.ts';

export const PASSWORD = 'correct horse battery staple';
export const REDIRECT_URI = 'http://127.0.0.1:9/callback';

export interface SsoFixture {
  readonly distributionId: string;
  readonly user: UserListing;
  readonly client: IssuedClient;
}

/** A distribution, a user in it (password PASSWORD) and a client redirecting to `redirectUri`. */
export async function createSsoFixture(
  server: Pick<TestServer, 'database'>,
  redirectUri = REDIRECT_URI,
  user: Partial<{ email: string; username: string; language: string }> = {},
): Promise<SsoFixture> {
  const db = server.database.handle.db;
  const distribution = await insertDistribution(db, 'SSO distribution');
  const suffix = randomBytes(4).toString('hex');
  const created = await createUser(db, {
    distributionId: distribution.id,
    email: user.email ?? `broker-${suffix}@example.be`,
    username: user.username ?? `broker-${suffix}`,
    password: PASSWORD,
    language: user.language ?? 'nl',
  });
  const client = await createClient(db, { name: 'Partner CRM', redirectUris: [redirectUri] });
  return { distributionId: distribution.id, user: created, client };
}

export interface Pkce {
  readonly verifier: string;
  readonly challenge: string;
}

/** RFC 7636: a 43-character verifier and its S256 challenge. */
export function pkcePair(): Pkce {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export function authorizationUrl(
  server: Pick<TestServer, 'url'>,
  params: {
    clientId: string;
    redirectUri?: string;
    scope?: string;
    challenge?: string;
    method?: string;
    extra?: Record<string, string>;
  },
): string {
  const url = new URL(`${server.url}/sso/auth`);
  const query: Record<string, string | undefined> = {
    response_type: 'code',
    client_id: params.clientId,
    redirect_uri: params.redirectUri ?? REDIRECT_URI,
    scope: params.scope ?? 'openid offline api',
    state: randomBytes(8).toString('hex'),
    code_challenge: params.challenge,
    code_challenge_method: params.challenge === undefined ? undefined : (params.method ?? 'S256'),
    ...params.extra,
  };
  for (const [name, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(name, value);
  return url.href;
}

export interface PageReply {
  readonly status: number;
  readonly headers: Headers;
  readonly body: string;
  readonly url: string;
}

/** A browser without a browser: keeps cookies, follows redirects on our host only. */
export class UserAgent {
  readonly #cookies = new Map<string, { value: string; path: string }>();
  /** The process this agent talks to. */
  readonly #origin: string;
  /**
   * PUBLIC_URL's origin, where the service sends the browser: requests there go to this
   * agent's process, as a load balancer in front of several processes would send them.
   */
  readonly #public: string;

  constructor(server: { readonly url: string; readonly config: Pick<TestServer['config'], 'publicUrl'> }) {
    this.#origin = new URL(server.url).origin;
    this.#public = new URL(server.config.publicUrl).origin;
  }

  /** One request, no redirects followed. */
  async request(
    url: string,
    init: { method?: string; form?: Record<string, string>; headers?: Record<string, string> } = {},
  ): Promise<PageReply> {
    const asked = new URL(url);
    const target = asked.origin === this.#public ? new URL(`${asked.pathname}${asked.search}`, this.#origin) : asked;
    const cookie = [...this.#cookies]
      .filter(([, entry]) => target.pathname.startsWith(entry.path))
      .map(([name, entry]) => `${name}=${entry.value}`)
      .join('; ');
    const response = await fetch(target, {
      method: init.method ?? (init.form ? 'POST' : 'GET'),
      redirect: 'manual',
      headers: {
        ...(cookie && { cookie }),
        ...(init.form && { 'content-type': 'application/x-www-form-urlencoded' }),
        'accept-language': 'en',
        ...init.headers,
      },
      ...(init.form && { body: new URLSearchParams(init.form).toString() }),
    });
    for (const line of response.headers.getSetCookie()) this.#store(line);
    return { status: response.status, headers: response.headers, body: await response.text(), url };
  }

  /** Follows redirects while they stay on the server; returns the first answer that is not one, or the redirect leaving it. */
  async follow(
    url: string,
    init: { form?: Record<string, string>; headers?: Record<string, string> } = {},
  ): Promise<PageReply> {
    let reply = await this.request(url, init);
    for (let hops = 0; hops < 10 && reply.status >= 300 && reply.status < 400; hops++) {
      const next = new URL(reply.headers.get('location')!, reply.url).href;
      const origin = new URL(next).origin;
      if (origin !== this.#origin && origin !== this.#public) return reply;
      reply = await this.request(next);
    }
    return reply;
  }

  #store(line: string): void {
    const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
    const index = pair.indexOf('=');
    const name = pair.slice(0, index);
    const value = pair.slice(index + 1);
    const path = attributes.find((attribute) => /^path=/i.test(attribute))?.slice(5) ?? '/';
    const expired = attributes.some(
      (attribute) => /^expires=/i.test(attribute) && Date.parse(attribute.slice(8)) < Date.now(),
    );
    if (expired || value === '') this.#cookies.delete(name);
    else this.#cookies.set(name, { value, path });
  }
}

/** A hidden or visible input's value on a page. */
export function inputValue(html: string, name: string): string | undefined {
  const match = new RegExp(`<input[^>]*name="${name}"[^>]*value="([^"]*)"`).exec(html);
  return match?.[1]
    ?.replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');
}

/** The form's action on a page (the first form with one ending in `suffix`). */
export function formAction(page: PageReply, suffix: string): string {
  const match = new RegExp(`<form[^>]*action="([^"]*${suffix})"`).exec(page.body);
  if (!match) throw new Error(`no form posting to …${suffix} on ${page.url} (status ${page.status}):\n${page.body}`);
  return new URL(match[1]!, page.url).href;
}

/**
 * Opens the authorization URL, signs in and allows everything; returns the redirect to
 * the client (its Location carries `code` and `state`, or an `error`).
 */
export async function signInAndConsent(
  agent: UserAgent,
  url: string,
  login: string,
  password = PASSWORD,
): Promise<URL> {
  const loginPage = await agent.follow(url);
  const afterLogin = await agent.follow(formAction(loginPage, '/login'), {
    form: { csrf: inputValue(loginPage.body, 'csrf')!, login, password },
  });
  const consented = afterLogin.body.includes('name="decision"')
    ? await agent.follow(formAction(afterLogin, '/consent'), {
        form: { csrf: inputValue(afterLogin.body, 'csrf')!, decision: 'allow' },
      })
    : afterLogin;
  if (consented.status < 300 || consented.status >= 400)
    throw new Error(`no redirect to the client (${consented.status}):\n${consented.body}`);
  return new URL(consented.headers.get('location')!);
}

/** POST /sso/token with client_secret_basic. */
export async function tokenRequest(
  server: Pick<TestServer, 'url'>,
  client: Pick<IssuedClient, 'client_id' | 'client_secret'>,
  form: Record<string, string>,
): Promise<ApiReply> {
  const basic = Buffer.from(
    `${encodeURIComponent(client.client_id)}:${encodeURIComponent(client.client_secret)}`,
  ).toString('base64');
  const response = await fetch(`${server.url}/sso/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

export function exchangeCode(
  server: Pick<TestServer, 'url'>,
  client: IssuedClient,
  code: string,
  verifier: string,
  redirectUri = REDIRECT_URI,
) {
  return tokenRequest(server, client, {
    grant_type: 'authorization_code',
    code,
    code_verifier: verifier,
    redirect_uri: redirectUri,
  });
}

/** The whole flow without a browser; returns the token response body. */
export async function signInForTokens(
  server: TestServer,
  fixture: SsoFixture,
  scope = 'openid offline api',
): Promise<any> {
  const pkce = pkcePair();
  const agent = new UserAgent(server);
  const redirect = await signInAndConsent(
    agent,
    authorizationUrl(server, { clientId: fixture.client.client_id, scope, challenge: pkce.challenge }),
    fixture.user.username,
  );
  const code = redirect.searchParams.get('code');
  if (!code) throw new Error(`no code: ${redirect.href}`);
  const tokens = await exchangeCode(server, fixture.client, code, pkce.verifier);
  if (tokens.status !== 200) throw new Error(`token exchange failed: ${JSON.stringify(tokens.body)}`);
  return tokens.body;
}
