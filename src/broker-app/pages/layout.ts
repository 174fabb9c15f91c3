// The shell of every broker app page: landmarks (header, navigation, main) and a skip
// link for keyboard and screen-reader users, the signed-in user with a sign-out button
// (a lead's pages add its tabs, lead-page.ts). No external assets: the style sheet is inline,
// allowed by its hash, and the Content-Security-Policy allows nothing else (no script at
// all, forms only to this service, no framing). Every page fits a 390 px phone without
// sideways scrolling and nothing spills out of its card at 1280 px (docs/design.md section
// 13): grids shrink to one column, long words break, and a table marked `stack` becomes a
// list of labelled lines when its container (a card, or the page) is narrow.
import type { Language } from '../../i18n/messages.ts';
import type { Formats } from '../formatting/locale-formats.ts';
import { type Html, html, styleSheet } from '../../html/html.ts';
import type { Translate } from '../texts/index.ts';

const STYLE = styleSheet(`
*{box-sizing:border-box}
body{margin:0;background:#f3f4f6;color:#111827;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
a{color:#1d4ed8}
a:focus,button:focus,input:focus,select:focus,textarea:focus,summary:focus{outline:3px solid #2563eb;outline-offset:2px}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
.skip{position:absolute;left:-999px;top:0;background:#fff;padding:.5rem 1rem}
.skip:focus{left:1rem;z-index:1}
header.top{display:flex;align-items:center;gap:.5rem 1.5rem;flex-wrap:wrap;padding:.75rem 1rem;background:#1e3a8a;color:#fff}
header.top a{color:#fff;font-weight:600;text-decoration:none}
header.top .brand{font-size:1.1rem}
header.top nav ul{display:flex;gap:1rem;margin:0;padding:0;list-style:none}
header.top .user{margin-left:auto;display:flex;align-items:center;gap:.75rem;flex-wrap:wrap;min-width:0}
header.top form{margin:0}
main{max-width:80rem;margin:1.5rem auto;padding:0 1rem;container-type:inline-size}
h1{margin:0 0 1rem;font-size:1.6rem;overflow-wrap:anywhere}
h2{margin:1.75rem 0 .75rem;font-size:1.2rem}
h3{margin:1.25rem 0 .5rem;font-size:1.05rem}
h2,h3,h4,p,li,dd,td,th,caption,label{overflow-wrap:anywhere}
section.card{background:#fff;border-radius:.5rem;padding:1rem;margin:0 0 1rem;box-shadow:0 1px 2px rgba(0,0,0,.1);container-type:inline-size;min-width:0}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(24rem,100%),1fr));gap:1rem;align-items:start}
.grid>section.card{margin:0}
section.card h2:first-child,section.card h3:first-child{margin-top:0}
nav.tabs ul,nav.statuses ul{display:flex;gap:.25rem;margin:0 0 1.25rem;padding:0;list-style:none;flex-wrap:wrap}
nav.tabs ul{border-bottom:2px solid #d1d5db}
nav.tabs a{display:block;padding:.5rem 1rem;text-decoration:none;border-radius:.375rem .375rem 0 0}
nav.tabs a[aria-current=page]{background:#1e3a8a;color:#fff}
nav.statuses a{display:block;padding:.35rem .75rem;border:1px solid #9ca3af;border-radius:999px;text-decoration:none;background:#fff}
nav.statuses a[aria-current=page]{background:#1e3a8a;border-color:#1e3a8a;color:#fff}
nav.statuses .count{font-weight:700}
table{width:100%;border-collapse:collapse;background:#fff}
caption{text-align:left;font-weight:600;padding:.5rem 0}
th,td{text-align:left;vertical-align:top;padding:.5rem .6rem;border-bottom:1px solid #e5e7eb}
th{background:#f9fafb;font-weight:600}
th .muted{font-weight:400}
section.card table th{background:none}
td.amount,th.amount{text-align:right;font-variant-numeric:tabular-nums}
tr.total th,tr.total td{font-weight:700;border-top:2px solid #111827}
@container (max-width:40rem){
table.stack thead{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%)}
table.stack,table.stack caption:not(.sr-only),table.stack tbody,table.stack tfoot,table.stack tr,table.stack th,table.stack td{display:block;width:100%}
table.stack tr{border-bottom:1px solid #d1d5db;padding:.4rem 0}
table.stack th,table.stack td{border:0;padding:.1rem 0;text-align:left}
table.stack td[data-label]::before{content:attr(data-label) ": ";font-weight:600}
table.stack td:empty{display:none}
}
@container (max-width:64rem){
table.stack.wide thead{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%)}
table.stack.wide,table.stack.wide caption:not(.sr-only),table.stack.wide tbody,table.stack.wide tr,table.stack.wide th,table.stack.wide td{display:block;width:100%}
table.stack.wide tr{border-bottom:1px solid #d1d5db;padding:.4rem 0}
table.stack.wide th,table.stack.wide td{border:0;padding:.1rem 0}
table.stack.wide td[data-label]::before{content:attr(data-label) ": ";font-weight:600}
}
@container (max-width:40rem){
table.stack.wide.inbox tr{display:grid;grid-template-columns:auto minmax(0,1fr) auto;gap:0 .6rem;align-items:baseline;padding:.35rem 0}
table.stack.wide.inbox td.pick{grid-column:1;grid-row:1/span 2;width:auto}
table.stack.wide.inbox th{grid-column:2;grid-row:1;width:auto}
table.stack.wide.inbox td.state{grid-column:3;grid-row:1;width:auto;text-align:right}
table.stack.wide.inbox td.who{grid-column:2;grid-row:2;width:auto;font-size:.875rem}
table.stack.wide.inbox td.when{grid-column:3;grid-row:2;width:auto;font-size:.875rem;text-align:right}
table.stack.wide.inbox td.due{grid-column:2/span 2;grid-row:3;width:auto;font-size:.875rem}
table.stack.wide.inbox .more{display:none}
table.stack.wide.inbox td[data-label]::before{content:none}
table.stack.wide.inbox td.due:not(:empty)::before{content:attr(data-label) ": "}
}
thead th{overflow-wrap:normal}
/* A column of short words is sized by its longest word: overflow-wrap:anywhere let the table squeeze it below (Fail/ed, lead.cr/eated); an address keeps room for a usual URL whole, and a longer one or an error still breaks */
table.deliveries td.whole{overflow-wrap:break-word}
table.deliveries th.address{width:18rem}
table.inbox td{overflow-wrap:break-word}
table.inbox .status{white-space:nowrap}
td.pick input{width:1.25rem;height:1.25rem;margin:.15rem 0 0}
svg.chart{display:block;width:100%;height:auto}
.weekly{display:grid;grid-template-columns:minmax(0,2fr) minmax(min(16rem,100%),1fr);gap:1rem;align-items:start}
.weekly>section.card{margin:0}
@container (max-width:48rem){.weekly{grid-template-columns:minmax(0,1fr)}}
form.filters>p.hint{flex:1 1 100%;margin:0}
details.more-filters{flex:1 1 100%}
details.more-filters>summary{display:inline-block;padding:.45rem .9rem;border:1px solid #1d4ed8;border-radius:.375rem;color:#1d4ed8;font-weight:600;cursor:pointer}
details.more-filters .fields{display:flex;gap:.75rem;flex-wrap:wrap;margin-top:.75rem}
details.more-filters .fields>div{flex:1 1 10rem;min-width:0}
fieldset.bulk{display:flex;gap:.75rem;flex-wrap:wrap;align-items:end;margin:1rem 0;border:1px solid #d1d5db;border-radius:.375rem;background:#fff;padding:.75rem 1rem}
fieldset.bulk legend{font-weight:600;padding:0 .25rem}
fieldset.bulk>p{flex:1 1 100%;margin:0}
fieldset.bulk>div{flex:1 1 12rem;min-width:0}
fieldset.bulk>div.actions{flex:0 0 auto}
dl.fields{display:grid;grid-template-columns:minmax(min(9rem,40%),max-content) minmax(0,1fr);gap:.35rem 1.25rem;margin:0}
dl.fields dt{font-weight:600;color:#374151}
dl.fields dd{margin:0;min-width:0}
form.filters,form.work{display:flex;gap:.75rem;flex-wrap:wrap;align-items:end;margin:0 0 1rem}
form.filters>div,form.work>div{flex:1 1 10rem;min-width:0}
form.filters>div.wide{flex:1 1 100%}
form.filters>div.actions,form.work>div.actions{flex:0 0 auto}
label{display:block;font-weight:600;margin:0 0 .25rem}
input[type=search],input[type=text],input[type=date],select,textarea{width:100%;max-width:100%;padding:.5rem .6rem;border:1px solid #6b7280;border-radius:.375rem;font:inherit;background:#fff}
textarea{resize:vertical}
[aria-invalid=true]{border:2px solid #b91c1c}
button{padding:.5rem 1rem;border:1px solid #1d4ed8;border-radius:.375rem;background:#1d4ed8;color:#fff;font:inherit;font-weight:600;cursor:pointer}
header.top button{background:#fff;color:#1e3a8a;border-color:#fff}
.note-form .actions{margin-top:.5rem}
.hint{color:#4b5563;font-size:.875rem;margin:.25rem 0 0}
.muted{color:#4b5563}
.flag,.status{display:inline-block;padding:.1rem .5rem;border-radius:999px;font-size:.8rem;font-weight:700}
.flag.bad{background:#fef2f2;color:#991b1b;border:1px solid #fca5a5}
.flag.good{background:#ecfdf5;color:#065f46;border:1px solid #6ee7b7}
.flag.wait{background:#fffbeb;color:#92400e;border:1px solid #fcd34d}
.status{background:#eff6ff;color:#1e3a8a;border:1px solid #93c5fd}
.status-won{background:#ecfdf5;color:#065f46;border-color:#6ee7b7}
.status-lost{background:#fef2f2;color:#991b1b;border-color:#fca5a5}
.notice{padding:.75rem 1rem;border-radius:.375rem;background:#eff6ff;border:1px solid #93c5fd;margin:0 0 1rem}
.refusal{padding:.75rem 1rem;border-radius:.375rem;background:#fef2f2;border:1px solid #b91c1c;color:#7f1d1d;margin:0 0 1rem}
.refusal p,.refusal ul{margin:0}
a.danger{color:#991b1b}
button.danger{background:#991b1b;border-color:#991b1b;color:#fff}
.explained{margin:.25rem 0 1.25rem;color:#374151}
.pager{display:flex;gap:.5rem 1rem;flex-wrap:wrap;margin:1rem 0}
ol.attempts{margin:0;padding-left:1.25rem}
ol.timeline,ol.notes{list-style:none;margin:0;padding:0}
ol.timeline>li{background:#fff;border-left:4px solid #1e3a8a;border-radius:.375rem;padding:.6rem .9rem;margin:0 0 .6rem;box-shadow:0 1px 2px rgba(0,0,0,.1)}
ol.timeline p,ol.notes p{margin:.2rem 0}
ol.notes>li{border-top:1px solid #e5e7eb;padding:.5rem 0}
ul.changes,ul.parts{margin:.25rem 0 0;padding-left:1.25rem}
.note{white-space:pre-wrap}
pre{white-space:pre-wrap;word-break:break-word;background:#111827;color:#f9fafb;padding:1rem;border-radius:.375rem;font-size:.85rem}
ins{background:#dcfce7;text-decoration:none}
del{background:#fee2e2}
`);

export const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': `default-src 'none'; style-src ${STYLE.cspSource}; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
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

export function renderPage(
  context: PageContext,
  {
    title,
    body,
    inboxCurrent = false,
    routingCurrent = false,
    sourcesCurrent = false,
  }: { title: string; body: Html; inboxCurrent?: boolean; routingCurrent?: boolean; sourcesCurrent?: boolean },
): string {
  const { t, user } = context;
  const account = user
    ? html`<div class="user"><span>${t('signedInAs', { user: user.username })}</span>
<form method="post" action="/app/logout"><input type="hidden" name="csrf" value="${user.csrf}"><button type="submit">${t('signOut')}</button></form></div>`
    : '';
  const navigation = user
    ? html`<nav aria-label="${t('mainNavigation')}"><ul><li><a href="/app"${inboxCurrent ? html` aria-current="page"` : ''}>${t('inbox')}</a></li><li><a href="/app/sources"${sourcesCurrent ? html` aria-current="page"` : ''}>${t('sources')}</a></li><li><a href="/app/routing"${routingCurrent ? html` aria-current="page"` : ''}>${t('routing')}</a></li></ul></nav>`
    : '';
  return html`<!doctype html>
<html lang="${context.language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title} · ${t('appName')}</title>
${STYLE.element}
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
