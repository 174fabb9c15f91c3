// What single sign-on needs from the database before it can answer: the signing keys
// and cookie secrets (created on first use), the provider built on them, and the access
// token verifier. Built on the first SSO request or bearer token rather than at start-up,
// so an app whose database is briefly unreachable still starts (and /readyz says so), and
// a process that never sees SSO traffic never generates a key. A failed attempt is
// forgotten, so the next request tries again.
import type { FastifyBaseLogger } from 'fastify';
import type Provider from 'oidc-provider';
import type { Config } from '../config.ts';
import type { DatabaseHandle } from '../db/database.ts';
import { createAccessTokenVerifier, type AccessTokenVerifier } from './tokens/access-token.ts';
import { createProvider } from './provider/provider.ts';
import { apiResourceOf, issuerOf } from './provider/provider-urls.ts';
import { loadCookieKeys } from './keys/provider-secrets.ts';
import { ensureSigningKey, loadSigningKeys } from './keys/signing-keys.ts';

export interface Sso {
  readonly provider: Provider;
  /** The provider as a Node request handler (Koa's callback, composed once). */
  readonly handle: ReturnType<Provider['callback']>;
  readonly accessTokens: AccessTokenVerifier;
  /** Keys the login and consent forms' CSRF tokens (shared by every process). */
  readonly csrfKey: string;
}

export type SsoRuntime = () => Promise<Sso>;

export function createSsoRuntime(config: Config, database: DatabaseHandle, log: FastifyBaseLogger): SsoRuntime {
  let ready: Promise<Sso> | undefined;
  return () => {
    ready ??= start(config, database, log).catch((error: unknown) => {
      ready = undefined;
      throw error;
    });
    return ready;
  };
}

async function start(config: Config, { db }: DatabaseHandle, log: FastifyBaseLogger): Promise<Sso> {
  // Loaded once: a process signs with a key from `sso rotate-keys` after its restart
  // (verification picks new keys up by itself, see tokens/access-token.ts).
  await ensureSigningKey(db);
  const signingKeys = await loadSigningKeys(db);
  const cookieKeys = await loadCookieKeys(db);
  const provider = createProvider({ config, db, signingKeys, cookieKeys });
  // The provider answers its own errors; the unexpected ones belong in our log.
  provider.on('server_error', (ctx, error) => {
    log.error({ err: error, reqId: ctx.response.get('x-request-id') || undefined }, 'SSO provider error');
  });
  return {
    provider,
    handle: provider.callback(),
    accessTokens: createAccessTokenVerifier(db, {
      issuer: issuerOf(config),
      audience: apiResourceOf(config),
      signingKeys,
    }),
    csrfKey: cookieKeys[0]!,
  };
}
