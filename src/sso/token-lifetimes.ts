// Token lifetimes by TOKEN_PROFILE (specification, "Token lifetimes").
import type { TokenProfile } from '../config.ts';

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

/** ID tokens: only read once by the client right after the code exchange. */
export const ID_TOKEN_LIFETIME = HOUR;

/**
 * How long a replaced signing key stays published: the longest a token it signed can
 * live, plus oidc-provider's default clock tolerance (15 s) rounded up to a minute.
 */
export function signingKeyRetention(profile: TokenProfile): number {
  return Math.max(TOKEN_LIFETIMES[profile].accessToken, ID_TOKEN_LIFETIME) + 60;
}
