// HTML by tagged template: every interpolated value is escaped unless it is already
// Html (built by this same tag), so escaping is the default and forgetting it is not
// possible by accident. Chosen over a template or JSX library because the pages are small,
// server-rendered and need nothing but escaping and composition: no build step, no
// runtime dependency, and TypeScript checks every value that goes into a page.
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Markup that is safe to send as is: only `html` and `joinHtml` make one. */
export class Html {
  readonly text: string;
  private constructor(text: string) {
    this.text = text;
  }
  toString(): string {
    return this.text;
  }
  /** For this module only: the one way text becomes markup. */
  static trusted(text: string): Html {
    return new Html(text);
  }
}

export type HtmlValue = Html | string | number | null | undefined | false | readonly HtmlValue[];

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ESCAPES[character]!);
}

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let out = strings[0]!;
  values.forEach((value, index) => {
    out += render(value) + strings[index + 1]!;
  });
  return Html.trusted(out);
}

export function joinHtml(parts: readonly HtmlValue[], separator = ''): Html {
  return Html.trusted(parts.map(render).join(escapeHtml(separator)));
}
