// The scopes an SSO client may ask for (docs/sso.md, "Single sign-on", Scopes). It asks
// for them and the user consents; the access token then carries those that concern the
// API.
import { API_SCOPE, API_TOKEN_SCOPES } from '../../auth/caller.ts';

/**
 * Either one gives a refresh token, and none is issued without one. `offline` is the
 * partner contract's name (docs/sso.md, "Single sign-on"); `offline_access` is OpenID Connect's (Core 1.0 section 11), which
 * oidc-provider honours only together with `prompt=consent`, as that section requires.
 */
export const REFRESH_SCOPES = ['offline', 'offline_access'] as const;

/** Carried by the API access token: `openid` (userinfo) and the API scopes. */
export const ACCESS_TOKEN_SCOPES = ['openid', API_SCOPE, ...API_TOKEN_SCOPES] as const;

/** Everything a client may ask for (discovery's scopes_supported). */
export const SSO_SCOPES = ['openid', ...REFRESH_SCOPES, API_SCOPE, ...API_TOKEN_SCOPES] as const;

export type SsoScope = (typeof SSO_SCOPES)[number];
