import { describe, expect, it } from 'vitest';
import { TOKEN_LIFETIMES, providerTtl, signingKeyRetention } from './token-lifetimes.ts';

describe('token lifetimes', () => {
  it('follow the contract: staging 2 h / 8 h, production 24 h / no expiry', () => {
    expect(providerTtl(TOKEN_LIFETIMES.staging)).toMatchObject({ AccessToken: 7200, RefreshToken: 28_800 });
    const production = providerTtl(TOKEN_LIFETIMES.production);
    expect(production.AccessToken).toBe(86_400);
    // Absent, not a default: oidc-provider then issues refresh tokens (and grants) without expiry.
    expect('RefreshToken' in production).toBe(false);
    expect('Grant' in production).toBe(false);
    expect(Object.getPrototypeOf(production)).toBeNull();
  });

  it('keep a replaced signing key as long as a token it signed can live', () => {
    expect(signingKeyRetention('production')).toBe(86_400 + 60);
    expect(signingKeyRetention('staging')).toBe(7200 + 60);
  });
});
