// The embedded OpenID Connect provider (docs/design.md sections 4 and 12): panva's
// oidc-provider with issuer {PUBLIC_URL}/sso, Authorization Code with PKCE (S256 only,
// for every client), JWT access tokens (RFC 9068) for the API, refresh tokens only with
// `offline`/`offline_access`, revocation and end-session. Its options are checked when
// the provider is created, so a mistake here fails at start-up.
import Provider, { errors, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import type { Kysely } from 'kysely';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { verifyClientSecret } from '../clients/client.service.ts';
import { createAdapterFactory } from './oidc-adapter.ts';
import { logoutFormOf } from './logout-form.ts';
import { pinProviderOrigin } from './provider-origin.ts';
import { apiResourceOf, interactionPathOf, issuerOf } from './provider-urls.ts';
import { PAGE_LANGUAGES, pageLanguage } from '../pages/language.ts';
import type { RenderedPage } from '../pages/layout.ts';
import { renderErrorPage, renderSignOutPage, renderSignedOutPage } from '../pages/notice.page.ts';
import { ACCESS_TOKEN_SCOPES, REFRESH_SCOPES, SSO_SCOPES } from '../tokens/scopes.ts';
import { SIGNING_ALG, type PrivateJwk } from '../keys/signing-keys.ts';
import { TOKEN_LIFETIMES, providerTtl } from '../tokens/token-lifetimes.ts';
import { USER_CLAIMS, userClaims } from '../tokens/user-claims.ts';
import { findActiveUser } from '../users/user.service.ts';
import { FIRST_PARTY_CLIENT_ID } from '../clients/first-party-client.service.ts';

export interface ProviderSetup {
  readonly config: Config;
  readonly db: Kysely<Database>;
  /** Newest first: the first key signs. */
  readonly signingKeys: readonly PrivateJwk[];
  readonly cookieKeys: readonly string[];
}

export function createProvider({ config, db, signingKeys, cookieKeys }: ProviderSetup): Provider {
  const issuer = issuerOf(config);
  const apiResource = apiResourceOf(config);
  const lifetimes = TOKEN_LIFETIMES[config.tokenProfile];

  const configuration: Configuration = {
    adapter: createAdapterFactory(db),
    jwks: { keys: signingKeys },
    cookies: { keys: [...cookieKeys] },
    async findAccount(_ctx, id) {
      // A disabled user is no account: codes and refresh tokens of theirs are refused.
      const user = await findActiveUser(db, id);
      return user && { accountId: user.id, claims: () => userClaims(user) };
    },
    // Every userinfo claim (docs/design.md section 12) comes with `openid`.
    claims: { openid: [...USER_CLAIMS] },
    scopes: [...SSO_SCOPES],
    responseTypes: ['code'],
    // Confidential clients only, with the secret hashed at rest: no client_secret_jwt,
    // which would need the secret itself as an HMAC key.
    clientAuthMethods: ['client_secret_basic', 'client_secret_post'],
    clientDefaults: { id_token_signed_response_alg: SIGNING_ALG, token_endpoint_auth_method: 'client_secret_basic' },
    enabledJWA: { idTokenSigningAlgValues: [SIGNING_ALG] },
    // S256 is the only method oidc-provider 9 implements; `plain` is refused as unsupported.
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      // Our API does not check DPoP proofs, so sender-constrained tokens would not be.
      dPoP: { enabled: false },
      revocation: {
        enabled: true,
        // A client revokes its own tokens only (RFC 7009 section 2.1).
        allowedPolicy: async (_ctx, client, token) => {
          if (token.clientId !== client.clientId)
            throw new errors.InvalidRequest('client is not authorized to revoke the presented token');
          return true;
        },
      },
      // Served by userinfo.routes.ts: oidc-provider's own userinfo refuses access tokens
      // that have an audience, and ours are JWTs for the API. Discovery still names it.
      userinfo: { enabled: false },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: (ctx, form) => respond(ctx, renderSignOutPage(languageOf(ctx), logoutFormOf(form))),
        postLogoutSuccessSource: (ctx) => respond(ctx, renderSignedOutPage(languageOf(ctx))),
      },
      resourceIndicators: {
        enabled: true,
        // A client that names no resource gets a token for the API (the usual case).
        defaultResource: (_ctx, _client, oneOf) => oneOf ?? apiResource,
        useGrantedResource: () => true,
        getResourceServerInfo(_ctx, resourceIndicator) {
          if (resourceIndicator !== apiResource) throw new errors.InvalidTarget();
          return {
            scope: ACCESS_TOKEN_SCOPES.join(' '),
            audience: apiResource,
            accessTokenTTL: lifetimes.accessToken,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: SIGNING_ALG } },
          };
        },
      },
    },
    discovery: {
      userinfo_endpoint: `${issuer}/userinfo`,
      ui_locales_supported: PAGE_LANGUAGES,
      service_documentation: `${config.publicUrl}/docs`,
    },
    interactions: {
      url: (_ctx, interaction) => interactionPathOf(interaction.uid),
    },
    issueRefreshToken: async (_ctx, client, code) =>
      client.grantTypeAllowed('refresh_token') && REFRESH_SCOPES.some((scope) => code.scopes.has(scope)),
    // Refresh tokens outlive the browser session that created them: that is what the
    // user consented to with `offline`.
    expiresWithSession: async () => false,
    // Confidential clients authenticate every refresh, so the refresh token is not
    // rotated (RFC 9700 section 2.2.2); rotation would turn two concurrent refreshes
    // into a revoked grant.
    rotateRefreshToken: false,
    ttl: providerTtl(lifetimes),
    renderError: (ctx, out) =>
      respond(ctx, renderErrorPage(languageOf(ctx), undefined, out.error_description ?? out.error)),
    // Partners exchange codes server-side; no browser calls our token endpoint.
    clientBasedCORS: () => false,
    // oidc-provider's own lookup, plus a grant of `openid` for our first-party client
    // (clients/first-party-client.service.ts): the broker app's sign-in shows no consent page.
    async loadExistingGrant(ctx) {
      const clientId = ctx.oidc.client!.clientId;
      const accountId = ctx.oidc.session?.accountId;
      const grantId = ctx.oidc.result?.consent?.grantId || ctx.oidc.session?.grantIdFor(clientId);
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      if (clientId !== FIRST_PARTY_CLIENT_ID || !accountId) return undefined;
      const grant = new ctx.oidc.provider.Grant({ clientId, accountId });
      grant.addOIDCScope('openid');
      grant.addOIDCClaims([...USER_CLAIMS]);
      // The access token that comes with it carries `openid` only: userinfo, no API operation.
      grant.addResourceScope(apiResource, 'openid');
      await grant.save();
      return grant;
    },
  };

  const provider = new Provider(issuer, configuration);
  pinProviderOrigin(provider, config.publicUrl);
  // The client metadata carries a hash of the secret (clients/client.service.ts), so the
  // comparison hashes what the client presents: oidc-provider documents overriding
  // compareClientSecret on a provider's Client prototype as the hook for stored hashes.
  provider.Client.prototype.compareClientSecret = function compareClientSecret(
    this: { clientSecret?: string },
    presented: string,
  ) {
    return Promise.resolve(verifyClientSecret(this.clientSecret, presented));
  };
  return provider;
}

function languageOf(ctx: KoaContextWithOIDC) {
  return pageLanguage(ctx.oidc?.params?.ui_locales, ctx.get('accept-language') || undefined);
}

function respond(ctx: KoaContextWithOIDC, page: RenderedPage): void {
  ctx.set(page.headers as Record<string, string>);
  ctx.body = page.html;
}
