// The shell of every broker app page: landmarks (header, navigation, main) and a skip
// link for keyboard and screen-reader users, the signed-in user with a sign-out button,
// and the lead's tabs on a lead's pages. No external assets: the style sheet is inline,
// allowed by its hash, and the Content-Security-Policy allows nothing else (no script at
// all, forms only to this service, no framing).
import { createHash } from 'node:crypto';
import type { Language } from '../i18n/messages.ts';
import type { Formats } from './format.ts';
import { Html, html } from './html.ts';
import type { Translate } from './texts/index.ts';

const STYLE = `
*{box-sizing:border-box}
body{margin:0;background:#f3f4f6;color:#111827;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
a{color:#1d4ed8}
a:focus,button:focus,input:focus,summary:focus{outline:3px solid #2563eb;outline-offset:2px}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
.skip{position:absolute;left:-999px;top:0;background:#fff;padding:.5rem 1rem}
.skip:focus{left:1rem;z-index:1}
header.top{display:flex;align-items:center;gap:1.5rem;flex-wrap:wrap;padding:.75rem 1.5rem;background:#1e3a8a;color:#fff}
header.top a{color:#fff;font-weight:600;text-decoration:none}
header.top .brand{font-size:1.1rem}
header.top nav ul{display:flex;gap:1rem;margin:0;padding:0;list-style:none}
header.top .user{margin-left:auto;display:flex;align-items:center;gap:.75rem}
header.top form{margin:0}
main{max-width:72rem;margin:1.5rem auto;padding:0 1.5rem}
h1{margin:0 0 1rem;font-size:1.6rem}
h2{margin:1.75rem 0 .75rem;font-size:1.2rem}
h3{margin:1.25rem 0 .5rem;font-size:1.05rem}
section.card{background:#fff;border-radius:.5rem;padding:1rem 1.25rem;margin:0 0 1rem;box-shadow:0 1px 2px rgba(0,0,0,.1)}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(24rem,1fr));gap:1rem;align-items:start}
.grid>section.card{margin:0}
section.card h2:first-child,section.card h3:first-child{margin-top:0}
nav.tabs ul{display:flex;gap:.25rem;margin:0 0 1.25rem;padding:0;list-style:none;border-bottom:2px solid #d1d5db;flex-wrap:wrap}
nav.tabs a{display:block;padding:.5rem 1rem;text-decoration:none;border-radius:.375rem .375rem 0 0}
nav.tabs a[aria-current=page]{background:#1e3a8a;color:#fff}
table{width:100%;border-collapse:collapse;background:#fff}
caption{text-align:left;font-weight:600;padding:.5rem 0}
th,td{text-align:left;vertical-align:top;padding:.5rem .6rem;border-bottom:1px solid #e5e7eb}
th{background:#f9fafb;font-weight:600}
th .muted{font-weight:400}
section.card table th{background:none}
td.amount,th.amount{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}
tr.total th,tr.total td{font-weight:700;border-top:2px solid #111827}
dl.fields{display:grid;grid-template-columns:minmax(9rem,max-content) 1fr;gap:.35rem 1.25rem;margin:0}
dl.fields dt{font-weight:600;color:#374151}
dl.fields dd{margin:0}
form.search{display:flex;gap:.5rem;flex-wrap:wrap;align-items:end;margin:0 0 1rem}
form.search div{flex:1;min-width:16rem}
label{display:block;font-weight:600;margin:0 0 .25rem}
input[type=search]{width:100%;padding:.55rem .7rem;border:1px solid #6b7280;border-radius:.375rem;font:inherit}
button{padding:.5rem 1rem;border:1px solid #1d4ed8;border-radius:.375rem;background:#1d4ed8;color:#fff;font:inherit;font-weight:600;cursor:pointer}
header.top button{background:#fff;color:#1e3a8a;border-color:#fff}
.hint{color:#4b5563;font-size:.875rem;margin:.25rem 0 0}
.muted{color:#4b5563}
.flag{display:inline-block;padding:.1rem .5rem;border-radius:999px;font-size:.8rem;font-weight:700}
.flag.bad{background:#fef2f2;color:#991b1b;border:1px solid #fca5a5}
.flag.good{background:#ecfdf5;color:#065f46;border:1px solid #6ee7b7}
.flag.wait{background:#fffbeb;color:#92400e;border:1px solid #fcd34d}
.notice{padding:.75rem 1rem;border-radius:.375rem;background:#eff6ff;border:1px solid #93c5fd;margin:0 0 1rem}
.pager{display:flex;gap:1rem;margin:1rem 0}
ol.attempts{margin:0;padding-left:1.25rem}
pre{white-space:pre-wrap;word-break:break-word;background:#111827;color:#f9fafb;padding:1rem;border-radius:.375rem;font-size:.85rem}
ins{background:#dcfce7;text-decoration:none}
del{background:#fee2e2}
`;

// Ours and constant: inserted as markup (escaping its quotes would change its hash).
const htmlStyle = Html.trusted(STYLE);
const STYLE_HASH = `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`;

export const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': `default-src 'none'; style-src ${STYLE_HASH}; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
  'x-frame-options': 'DENY',
  'referrer-policy': 'same-origin',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
} as const;

/** What every page needs to speak the user's language and show their session. */
export interface PageContext {
  readonly language: Language;
  readonly t: Translate;
  readonly formats: Formats;
  /** Signed in: the username shown and the sign-out form's CSRF token. */
  readonly user?: { readonly username: string; readonly csrf: string };
}

export type LeadTab = 'party' | 'proflow' | 'risk-scan' | 'advisory';

const TAB_PATHS: Record<LeadTab, string> = {
  party: '/app/parties/',
  proflow: '/app/proflow/parties/',
  'risk-scan': '/app/risk-scan/parties/',
  advisory: '/app/advisory/parties/',
};
const TAB_LABELS = {
  party: 'tabParty',
  proflow: 'tabProflow',
  'risk-scan': 'tabRiskScan',
  advisory: 'tabAdvisory',
} as const;

export function leadTabs(context: PageContext, partyId: string, current: LeadTab): Html {
  const tabs = (Object.keys(TAB_PATHS) as LeadTab[]).map(
    (tab) =>
      html`<li><a href="${TAB_PATHS[tab]}${partyId}"${current === tab ? html` aria-current="page"` : ''}>${context.t(TAB_LABELS[tab])}</a></li>`,
  );
  return html`<nav class="tabs" aria-label="${context.t('leadSections')}"><ul>${tabs}</ul></nav>`;
}

export function renderPage(
  context: PageContext,
  { title, body, inboxCurrent = false }: { title: string; body: Html; inboxCurrent?: boolean },
): string {
  const { t, user } = context;
  const account = user
    ? html`<div class="user"><span>${t('signedInAs', { user: user.username })}</span>
<form method="post" action="/app/logout"><input type="hidden" name="csrf" value="${user.csrf}"><button type="submit">${t('signOut')}</button></form></div>`
    : '';
  const navigation = user
    ? html`<nav aria-label="${t('mainNavigation')}"><ul><li><a href="/app"${inboxCurrent ? html` aria-current="page"` : ''}>${t('inbox')}</a></li></ul></nav>`
    : '';
  return html`<!doctype html>
<html lang="${context.language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title} · ${t('appName')}</title>
<style>${htmlStyle}</style>
</head>
<body>
<a class="skip" href="#content">${t('skipToContent')}</a>
<header class="top"><a class="brand" href="/app">${t('appName')}</a>${navigation}${account}</header>
<main id="content" tabindex="-1">
<h1>${title}</h1>
${body}
</main>
</body>
</html>`.text;
}
