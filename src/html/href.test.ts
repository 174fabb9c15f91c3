import { describe, expect, it } from 'vitest';
import { ownHref, webHref } from './href.ts';

describe('webHref: a URL from data is a link only when it is http(s)', () => {
  it('keeps http and https URLs as written, in any case', () => {
    for (const url of [
      'https://crm.example.com/contacts/4711',
      'http://crm.example.com/contacts/4711?tab=leads#top',
      'HTTPS://CRM.example.com/x',
      'HtTp://crm.example.com:8080/x',
      'https://user@crm.example.com/x',
    ]) {
      expect(webHref(url)?.url).toBe(url);
    }
  });

  it('gives no link for any other scheme, mixed case included', () => {
    for (const url of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      'javascript://crm.example.com/%0aalert(1)',
      'data:text/html,<script>alert(1)</script>',
      'DATA:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
      'vbscript:msgbox(1)',
      'VBScript:msgbox(1)',
      'ftp://crm.example.com/x',
      'mailto:someone@example.com',
      'file:///etc/passwd',
    ]) {
      expect(webHref(url), url).toBeUndefined();
    }
  });

  it('gives no link for leading spaces or control characters, which a browser would strip', () => {
    for (const url of [
      ' javascript:alert(1)',
      '\u0001javascript:alert(1)',
      '\tjavascript:alert(1)',
      ' https://crm.example.com/x',
      'https://crm.example.com/x ',
      'java\nscript:alert(1)',
      'https://crm.example.com/\u0000x',
      'https://crm.example.com/a b',
      'ht\ttps://crm.example.com/x',
    ]) {
      expect(webHref(url), JSON.stringify(url)).toBeUndefined();
    }
  });

  it('gives no link for protocol-relative and relative URLs', () => {
    for (const url of [
      '//evil.example/x',
      '\\\\evil.example/x',
      '/app/parties/1',
      'contacts/4711',
      '?q=1',
      '#top',
      '',
    ]) {
      expect(webHref(url), url).toBeUndefined();
    }
  });

  it('gives no link for what is not text or not a whole URL', () => {
    for (const value of [undefined, null, 42, { href: 'https://x.example' }, 'https://', 'https:crm.example.com']) {
      expect(webHref(value)).toBeUndefined();
    }
  });
});

describe("ownHref: one of this service's own paths", () => {
  it('takes a path that starts with one slash', () => {
    expect(ownHref('/app?q=claes&cursor=abc').url).toBe('/app?q=claes&cursor=abc');
    expect(ownHref('/sso/interaction/abc/login').url).toBe('/sso/interaction/abc/login');
  });

  it('refuses anything a browser would take to another host or scheme', () => {
    for (const path of ['//evil.example', '/\\evil.example', 'https://evil.example', 'javascript:alert(1)', 'app']) {
      expect(() => ownHref(path), path).toThrow(TypeError);
    }
  });
});
