// The broker app is an OpenID Connect client of the embedded provider (docs/design.md section 7):
// Authorization Code with PKCE (S256), state and nonce, as the provider's first-party client
// (confidential, its secret in the database). The client registers itself, from PUBLIC_URL
// alone, on every sign-in: so a changed PUBLIC_URL or a client deleted from the CLI heals
// itself, and every process behind a load balancer agrees on it. The code is exchanged in-process
// (Fastify's inject into our own /sso/token): PUBLIC_URL may be an address this process
// cannot reach, and no request header ever decides where anything goes.
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import type { Language } from '../../i18n/messages.ts';
import { ensureFirstPartyClient, type FirstPartyClient, issuerOf, SSO_PATH, verifyIdToken } from '../../sso/index.ts';

export const callbackPath = '/app/callback';
export const redirectUriOf = (config: Pick<Config, 'publicUrl'>) => `${config.publicUrl}${callbackPath}`;

/** Registers (or repairs) the app's client, the provider's first-party one; two processes doing it at once agree. */
export function ensureAppClient(db: Kysely<Database>, config: Pick<Config, 'publicUrl'>): Promise<FirstPartyClient> {
  return ensureFirstPartyClient(db, redirectUriOf(config));
}

/** What the browser carries between leaving for the provider and coming back (a short-lived cookie). */
export interface PendingSignIn {
  readonly state: string;
  readonly nonce: string;
  readonly verifier: string;
  /** A path under /app (checked by safeReturnPath before it gets here). */
  readonly returnTo: string;
}

const random = () => randomBytes(32).toString('base64url');

export function beginSignIn(
  config: Pick<Config, 'publicUrl'>,
  client: FirstPartyClient,
  language: Language,
  returnTo: string,
): { url: string; pending: PendingSignIn } {
  const pending: PendingSignIn = { state: random(), nonce: random(), verifier: random(), returnTo };
  const url = new URL(`${issuerOf(config)}/auth`);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: client.clientId,
    redirect_uri: redirectUriOf(config),
    scope: 'openid',
    state: pending.state,
    nonce: pending.nonce,
    code_challenge: createHash('sha256').update(pending.verifier).digest('base64url'),
    code_challenge_method: 'S256',
    // The password every time: signing out of the app must mean signed out, even while
    // the provider still remembers the browser for partner applications.
    prompt: 'login',
    ui_locales: language,
  }).toString();
  return { url: url.href, pending };
}

export function encodePending(pending: PendingSignIn): string {
  return Buffer.from(JSON.stringify(pending)).toString('base64url');
}

export function decodePending(value: string | undefined): PendingSignIn | undefined {
  if (!value || value.length > 2000) return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(value, 'base64url').toString()) as Record<string, unknown>;
    const { state, nonce, verifier, returnTo } = parsed;
    if ([state, nonce, verifier, returnTo].every((field) => typeof field === 'string'))
      return parsed as unknown as PendingSignIn;
  } catch {
    // not ours: treated as no sign-in in progress
  }
  return undefined;
}

/** A path inside the app to come back to; anything else (another host, `//evil`) becomes the inbox. */
export function safeReturnPath(value: unknown): string {
  if (typeof value !== 'string' || value.length > 2000) return '/app';
  // No backslash, space or control character: browsers read some of them as a path separator.
  return /^\/app(?:[/?][^\\\s\p{Cc}]*)?$/u.test(value) && !value.startsWith('//') && !/^\/app\/\//.test(value)
    ? value
    : '/app';
}

/**
 * Exchanges the code (with the PKCE verifier) at our own token endpoint and checks the ID
 * token (signature, issuer, audience, nonce). Returns the user id, or undefined when the
 * provider refuses or the token does not check out.
 */
export async function completeSignIn(
  app: FastifyInstance,
  db: Kysely<Database>,
  config: Pick<Config, 'publicUrl'>,
  client: FirstPartyClient,
  code: string,
  pending: PendingSignIn,
): Promise<string | undefined> {
  const basic = Buffer.from(`${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.secret)}`).toString(
    'base64',
  );
  const response = await app.inject({
    method: 'POST',
    url: `${SSO_PATH}/token`,
    headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      code_verifier: pending.verifier,
      redirect_uri: redirectUriOf(config),
    }).toString(),
  });
  if (response.statusCode !== 200) return undefined;
  const idToken = (response.json() as { id_token?: unknown }).id_token;
  if (typeof idToken !== 'string') return undefined;
  const payload = await verifyIdToken(db, idToken, { issuer: issuerOf(config), audience: client.clientId });
  return payload?.nonce === pending.nonce && typeof payload.sub === 'string' ? payload.sub : undefined;
}
