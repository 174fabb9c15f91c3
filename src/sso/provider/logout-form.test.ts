import { describe, expect, it } from 'vitest';
import { logoutFormOf } from './logout-form.ts';

describe("oidc-provider's sign-out form, taken apart", () => {
  it('gives the confirmation URL and the xsrf token of the form the library writes', () => {
    const form = logoutFormOf(
      '<form id="op.logoutForm" method="post" action="https://leads.example.be/sso/session/end/confirm"><input type="hidden" name="xsrf" value="a1b2c3"/></form>',
    );
    expect(form.action.url).toBe('https://leads.example.be/sso/session/end/confirm');
    expect(form.xsrf).toBe('a1b2c3');
  });

  it('refuses any other shape, and an action that is no http(s) URL', () => {
    for (const markup of [
      '<form id="op.logoutForm" method="post" action="https://x.example/c"><input type="hidden" name="xsrf" value="a"/><script>1</script></form>',
      '<form id="op.logoutForm" method="post" action="javascript:alert(1)"><input type="hidden" name="xsrf" value="a"/></form>',
      '',
    ]) {
      expect(() => logoutFormOf(markup)).toThrow(/unknown shape/);
    }
  });
});
