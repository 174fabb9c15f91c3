import { describe, expect, it } from 'vitest';
import { html, joinHtml } from './html.ts';

describe('html tagged template', () => {
  it('escapes every interpolated text, keeps nested markup, drops empty values', () => {
    const name = `<script>alert("x")</script>&'`;
    const row = html`<td>${name}</td>`;
    expect(html`<tr>${row}${null}${undefined}${false}${[html`<td>${1}</td>`, 'a<b']}</tr>`.text).toBe(
      '<tr><td>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;</td><td>1</td>a&lt;b</tr>',
    );
  });

  it('escapes attribute values, so a quote cannot end the attribute', () => {
    expect(html`<a href="${'x" onclick="evil()'}">`.text).toBe('<a href="x&quot; onclick=&quot;evil()">');
  });

  it('joins with an escaped separator', () => {
    expect(joinHtml(['a&', html`<b>b</b>`], ' & ').text).toBe('a&amp; &amp; <b>b</b>');
  });
});
