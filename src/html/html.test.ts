import { describe, expect, it } from 'vitest';
import { ownHref, webHref } from './href.ts';
import { html, joinHtml, styleSheet } from './html.ts';

describe('html tagged template', () => {
  it('escapes every interpolated text, keeps nested markup, drops empty values', () => {
    const name = `<script>alert("x")</script>&'`;
    const row = html`<td>${name}</td>`;
    expect(html`<tr>${row}${null}${undefined}${false}${[html`<td>${1}</td>`, 'a<b']}</tr>`.text).toBe(
      '<tr><td>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;</td><td>1</td>a&lt;b</tr>',
    );
  });

  it('escapes attribute values, so a quote cannot end the attribute', () => {
    expect(html`<input value="${'x" onfocus="evil()'}">`.text).toBe('<input value="x&quot; onfocus=&quot;evil()">');
    expect(html`<a href="/app/parties/${'x" onclick="evil()'}">`.text).toBe(
      '<a href="/app/parties/x&quot; onclick=&quot;evil()">',
    );
  });

  it('joins with an escaped separator', () => {
    expect(joinHtml(['a&', html`<b>b</b>`], ' & ').text).toBe('a&amp; &amp; <b>b</b>');
  });

  it('takes only an Href where a URL attribute begins, and escapes it there', () => {
    const link = webHref('https://crm.example.com/x?a=1&b="2"')!;
    expect(html`<a href="${link}">`.text).toBe('<a href="https://crm.example.com/x?a=1&amp;b=&quot;2&quot;">');
    expect(html`<form action="${ownHref('/sso/interaction/u1/login')}">`.text).toBe(
      '<form action="/sso/interaction/u1/login">',
    );
    for (const begins of [
      (value: string) => html`<a href="${value}">`,
      (value: string) => html`<a class="x" HREF='${value}'>`,
      (value: string) => html`<img src=${value}>`,
      (value: string) => html`<form method="post" action = "${value}">`,
      (value: string) => html`<button formaction="${value}">`,
    ]) {
      expect(() => begins('javascript:alert(1)')).toThrow(TypeError);
      expect(() => begins('https://crm.example.com/x')).toThrow(TypeError);
    }
  });

  it('writes a style sheet as it is, with the hash a Content-Security-Policy allows it by', () => {
    const sheet = styleSheet('p{font-family:"Segoe UI"}');
    expect(html`<head>${sheet.element}</head>`.text).toBe('<head><style>p{font-family:"Segoe UI"}</style></head>');
    // echo -n 'p{font-family:"Segoe UI"}' | openssl dgst -sha256 -binary | base64
    expect(sheet.cspSource).toBe("'sha256-6FuZArpqEaPFSJFb4C7d+U8ZsWn5wYXlaqXOgJ2F52w='");
  });
});
