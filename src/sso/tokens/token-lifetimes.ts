// Token lifetimes by TOKEN_PROFILE (docs/design.md section 12; docs/operations.md, "Configuration").
import type { Configuration } from 'oidc-provider';
import type { TokenProfile } from '../../config.ts';

export interface TokenLifetimes {
  /** Seconds. */
  readonly accessToken: number;
  /** Seconds; undefined: the refresh token does not expire. */
  readonly refreshToken: number | undefined;
}

const HOUR = 3600;

export const TOKEN_LIFETIMES: Readonly<Record<TokenProfile, TokenLifetimes>> = {
  staging: { accessToken: 2 * HOUR, refreshToken: 8 * HOUR },
  production: { accessToken: 24 * HOUR, refreshToken: undefined },
};

/** Seconds a grant without refresh tokens is kept: longer than the browser session it serves. */
export const GRANT_WITHOUT_REFRESH_TTL = 24 * HOUR;

/** The browser session at the provider: a working day without signing in again. */
export const SESSION_LIFETIME = 8 * HOUR;

/** ID tokens: only read once by the client right after the code exchange. */
export const ID_TOKEN_LIFETIME = HOUR;

/**
 * How long a replaced signing key stays published: the longest a token it signed can
 * live, plus oidc-provider's default clock tolerance (15 s) rounded up to a minute.
 */
export function signingKeyRetention(profile: TokenProfile): number {
  return Math.max(TOKEN_LIFETIMES[profile].accessToken, ID_TOKEN_LIFETIME) + 60;
}

/**
 * oidc-provider merges a plain `ttl` object over its defaults, so an entry left out
 * would fall back to a default (14 days for refresh tokens). An object that is not plain
 * replaces the defaults as a whole; then an absent entry means "never expires", which the
 * provider's own configuration check allows. That is how production refresh tokens (and
 * the grants they live on) do not expire (docs/design.md section 12).
 */
export function providerTtl(lifetimes: TokenLifetimes): NonNullable<Configuration['ttl']> {
  const ttl: NonNullable<Configuration['ttl']> = Object.create(null);
  Object.assign(ttl, {
    AccessToken: lifetimes.accessToken,
    AuthorizationCode: 60,
    IdToken: ID_TOKEN_LIFETIME,
    Interaction: 60 * 60,
    Session: SESSION_LIFETIME,
    ...(lifetimes.refreshToken !== undefined && {
      RefreshToken: lifetimes.refreshToken,
      // A grant outlives every refresh token issued on it while its session lasts.
      Grant: 30 * 24 * 60 * 60,
    }),
  });
  return ttl;
}
