// The HTML shell of every sign-in page: no external assets (the style sheet is inline and
// allowed by its hash), and a Content-Security-Policy that allows nothing else. Forms
// may post to this service and, because the answer redirects there, to the client's
// redirect URI (browsers apply form-action to the redirects that follow a submission).
import { type Html, html, styleSheet } from '../../html/html.ts';
import type { Language } from '../../i18n/messages.ts';

const STYLE = styleSheet(`
*{box-sizing:border-box}
body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:#f3f4f6;color:#111827;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{width:100%;max-width:26rem;margin:1rem;padding:2rem;background:#fff;border-radius:.75rem;box-shadow:0 1px 3px rgba(0,0,0,.12)}
h1{margin:0 0 1rem;font-size:1.5rem}
p{margin:0 0 1rem}
label{display:block;margin:0 0 .25rem;font-weight:600}
input[type=text],input[type=password]{width:100%;margin:0 0 1rem;padding:.6rem .75rem;border:1px solid #9ca3af;border-radius:.375rem;font:inherit}
input:focus,button:focus{outline:3px solid #93c5fd;outline-offset:1px}
.actions{display:flex;gap:.75rem;flex-wrap:wrap}
button{flex:1;padding:.6rem 1rem;border:1px solid #1d4ed8;border-radius:.375rem;background:#1d4ed8;color:#fff;font:inherit;font-weight:600;cursor:pointer}
button.secondary{background:#fff;color:#1d4ed8}
.error{padding:.75rem;border-radius:.375rem;background:#fef2f2;color:#991b1b;border:1px solid #fecaca}
ul{margin:0 0 1.5rem;padding-left:1.25rem}
li{margin:.25rem 0}
.muted{color:#4b5563;font-size:.875rem}
pre{white-space:pre-wrap;word-break:break-word;font-size:.875rem}
`);

export interface RenderedPage {
  readonly html: string;
  readonly headers: Readonly<Record<string, string>>;
}

/** `formTargets`: origins (besides this service) a form on the page may end up at. */
export function renderPage({
  language,
  title,
  body,
  formTargets = [],
}: {
  language: Language;
  title: string;
  body: Html;
  formTargets?: readonly string[];
}): RenderedPage {
  const formAction = ["'self'", ...new Set(formTargets)].join(' ');
  const page = html`<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title}</title>
${STYLE.element}
</head>
<body>
<main>
<h1>${title}</h1>
${body}
</main>
</body>
</html>`;
  return {
    html: page.text,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': `default-src 'none'; style-src ${STYLE.cspSource}; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    },
  };
}

/** The origin of a redirect URI, for form-action; undefined when it is not a URL. */
export function originOf(uri: unknown): string | undefined {
  if (typeof uri !== 'string') return undefined;
  const origin = URL.parse(uri)?.origin;
  return origin && origin !== 'null' ? origin : undefined;
}
