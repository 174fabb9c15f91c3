// The lead inbox (docs/design.md section 7, `/app`): the distribution's leads, newest change
// first, with name, kind, origin, external refs, created/merged counts and when; a search
// box; and "older" paging by keyset cursor, so a page holds while new leads arrive.
import { html, joinHtml } from '../html.ts';
import type { InboxItem, InboxPage } from '../lead-data.ts';
import { type PageContext, renderPage } from '../layout.ts';

export function displayName(type: string, fields: Record<string, unknown>): string {
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  return type === 'COMPANY' ? text(fields.name) : `${text(fields.first_name)} ${text(fields.last_name)}`.trim();
}

function row(context: PageContext, item: InboxItem) {
  const { t, formats } = context;
  const refs =
    item.refs.length === 0
      ? html`<span class="muted">${t('none')}</span>`
      : joinHtml(
          item.refs.map((ref) => (ref.company ? `${ref.company}: ${ref.ref}` : ref.ref)),
          ', ',
        );
  return html`<tr>
<th scope="row"><a href="/app/parties/${item.partyId}">${displayName(item.type, item.fields) || t('notGiven')}</a>${typeof item.fields.email === 'string' ? html`<br><span class="muted">${item.fields.email}</span>` : ''}</th>
<td>${t(item.type === 'COMPANY' ? 'kindCOMPANY' : 'kindCUSTOMER')}</td>
<td>${item.origin ?? html`<span class="muted">${t('notGiven')}</span>`}</td>
<td>${refs}</td>
<td>${t('pushCounts', { created: item.created, merged: item.merged })}</td>
<td><time datetime="${item.updatedAt}">${formats.dateTime(item.updatedAt)}</time></td>
</tr>`;
}

export function renderInbox(
  context: PageContext,
  page: InboxPage,
  { search, nextHref, isFirstPage }: { search: string; nextHref: string | undefined; isFirstPage: boolean },
): string {
  const { t } = context;
  const form = html`<form class="search" method="get" action="/app" role="search">
<div><label for="q">${t('searchLabel')}</label>
<input type="search" id="q" name="q" value="${search}" maxlength="200" aria-describedby="q-hint">
<p class="hint" id="q-hint">${t('searchHint')}</p></div>
<button type="submit">${t('searchButton')}</button>
</form>`;
  const empty = search ? t('noResults', { q: search }) : t('noLeads');
  const table =
    page.items.length === 0
      ? html`<p class="notice" role="status">${empty}</p>`
      : html`<table>
<caption>${search ? t('resultsFor', { q: search }) : t('leadsTable')}</caption>
<thead><tr><th scope="col">${t('columnName')}</th><th scope="col">${t('columnKind')}</th><th scope="col">${t('columnOrigin')}</th><th scope="col">${t('columnRefs')}</th><th scope="col">${t('columnPushes')}</th><th scope="col">${t('columnChanged')}</th></tr></thead>
<tbody>${page.items.map((item) => row(context, item))}</tbody>
</table>`;
  const firstHref = search ? `/app?q=${encodeURIComponent(search)}` : '/app';
  const pager = html`<nav class="pager" aria-label="${t('leadsTable')}">
${isFirstPage ? '' : html`<a href="${firstHref}">${t('newestLeads')}</a>`}
${nextHref ? html`<a href="${nextHref}" rel="next">${t('olderLeads')}</a>` : ''}
${search ? html`<a href="/app">${t('clearSearch')}</a>` : ''}
</nav>`;
  return renderPage(context, { title: t('inboxTitle'), body: html`${form}${table}${pager}`, inboxCurrent: true });
}
