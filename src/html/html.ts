// HTML by tagged template, for every page of the service (the broker app's and the SSO's;
// docs/design.md section 10): every interpolated value is escaped unless it is already
// Html (built by this same tag), so escaping is the default and forgetting it is not
// possible by accident. A value that begins a URL attribute (href, src, action) must be
// an Href (href.ts), which lets only http(s) URLs from data in; anything else there is a
// mistake in our code, and the tag refuses it. Chosen over a template or JSX library
// because the pages are small, server-rendered and need nothing but escaping and
// composition: no build step, no runtime dependency, and TypeScript checks every value.
import { createHash } from 'node:crypto';
import { Href } from './href.ts';

let markup: (text: string) => Html;

/** Markup that is safe to send as is: only this module makes one (`html`, `joinHtml`, `styleSheet`). */
export class Html {
  readonly text: string;
  private constructor(text: string) {
    this.text = text;
  }
  toString(): string {
    return this.text;
  }
  static {
    markup = (text) => new Html(text);
  }
}

export type HtmlValue = Html | Href | string | number | null | undefined | false | readonly HtmlValue[];

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** The one escape of the code base: text, and attribute values in quotes, never become markup. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ESCAPES[character]!);
}

/** The literal text before a value ends where a URL attribute's value begins. */
const URL_ATTRIBUTE_START = /\s(?:href|src|action|formaction)\s*=\s*["']?$/i;

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Html) return value.text;
  if (value instanceof Href) return escapeHtml(value.url);
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

/** Per template (one object per call site), the values that begin a URL attribute. */
const urlPositions = new WeakMap<TemplateStringsArray, readonly boolean[]>();

function urlPositionsOf(strings: TemplateStringsArray): readonly boolean[] {
  let positions = urlPositions.get(strings);
  if (!positions) {
    positions = strings.slice(0, -1).map((literal) => URL_ATTRIBUTE_START.test(literal));
    urlPositions.set(strings, positions);
  }
  return positions;
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  const urls = urlPositionsOf(strings);
  let out = strings[0]!;
  values.forEach((value, index) => {
    if (urls[index] && !(value instanceof Href)) {
      throw new TypeError(`a URL attribute begins with a value that is no Href: ${strings[index]!.slice(-40)}`);
    }
    out += render(value) + strings[index + 1]!;
  });
  return markup(out);
}

export function joinHtml(parts: readonly HtmlValue[], separator = ''): Html {
  return markup(parts.map(render).join(escapeHtml(separator)));
}

/**
 * A page's own style sheet, a constant of our code: the `<style>` element as markup (escaping
 * its quotes would change its hash) and the source a Content-Security-Policy allows it by.
 */
export function styleSheet(css: string): { readonly element: Html; readonly cspSource: string } {
  return {
    element: markup(`<style>${css}</style>`),
    cspSource: `'sha256-${createHash('sha256').update(css).digest('base64')}'`,
  };
}
