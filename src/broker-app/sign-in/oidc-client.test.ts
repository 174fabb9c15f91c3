import { describe, expect, it } from 'vitest';
import { decodePending, encodePending, safeReturnPath } from './oidc-client.ts';

describe('where the browser returns after signing in', () => {
  it('keeps a path inside the app, query included', () => {
    expect(safeReturnPath('/app')).toBe('/app');
    expect(safeReturnPath('/app/parties/019a8f3c-5b2e-7c41-9a57-2f1d1c8b7e01')).toBe(
      '/app/parties/019a8f3c-5b2e-7c41-9a57-2f1d1c8b7e01',
    );
    expect(safeReturnPath('/app?q=claes&cursor=abc')).toBe('/app?q=claes&cursor=abc');
  });

  it('sends anything else to the inbox: no open redirect', () => {
    for (const hostile of [
      'https://evil.example/app',
      '//evil.example/app',
      '/app//evil.example',
      '/app\\evil',
      '/application',
      '/sso/auth',
      '',
      undefined,
      ['/app'],
      '/app/\u0000',
    ]) {
      expect(safeReturnPath(hostile), String(hostile)).toBe('/app');
    }
  });
});

describe('the sign-in in progress (cookie)', () => {
  it('comes back as it left, and anything else is no sign-in', () => {
    const pending = { state: 's', nonce: 'n', verifier: 'v', returnTo: '/app' };
    expect(decodePending(encodePending(pending))).toEqual(pending);
    for (const bad of [
      undefined,
      '',
      'not base64 json',
      Buffer.from('{"state":1}').toString('base64url'),
      'x'.repeat(3000),
    ]) {
      expect(decodePending(bad)).toBeUndefined();
    }
  });
});
