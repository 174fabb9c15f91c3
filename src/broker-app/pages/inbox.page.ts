// The lead inbox (docs/design.md sections 7 and 13, `/app`): the distribution's leads with
// name, status and assignee, kind, origin, external refs, created/merged counts and when;
// the leads per status as tabs; filters, a search box and the order in one GET form; "older"
// paging by keyset cursor, so a page holds while new leads arrive; and the CSV export of
// the same filtered list. On a narrow screen each lead is a block of labelled lines.
import { ownHref } from '../../html/href.ts';
import { html, joinHtml } from '../../html/html.ts';
import { type InboxParams, inboxSearchParams, type Status } from '../inbox-filter.ts';
import { displayName } from './field-values.ts';
import { type PageContext, renderPage } from './layout.ts';
import type { InboxItem, InboxPage } from '../lead-data.ts';
import { LEAD_STATUSES } from '../../party/index.ts';

export interface InboxView {
  readonly params: InboxParams;
  readonly counts: ReadonlyMap<Status, number>;
  /** User id -> username, for the assignee column. */
  readonly users: ReadonlyMap<string, string>;
  readonly nextHref: string | undefined;
  readonly isFirstPage: boolean;
}

function row(context: PageContext, item: InboxItem, view: InboxView) {
  const { t, formats } = context;
  const refs =
    item.refs.length === 0
      ? html`<span class="muted">${t('none')}</span>`
      : joinHtml(
          item.refs.map((ref) => (ref.company ? `${ref.company}: ${ref.ref}` : ref.ref)),
          ', ',
        );
  const assignee = item.assigneeId === null ? t('unassigned') : (view.users.get(item.assigneeId) ?? t('notGiven'));
  const origin =
    item.origin === null
      ? html`<span class="muted">${t('notGiven')}</span>`
      : html`<a href="/app?${inboxSearchParams(view.params, { origin: item.origin }).toString()}">${item.origin}</a>`;
  return html`<tr>
<th scope="row"><a href="/app/parties/${item.partyId}">${displayName(item.type, item.fields) || t('notGiven')}</a>${typeof item.fields.email === 'string' ? html`<br><span class="muted">${item.fields.email}</span>` : ''}</th>
<td data-label="${t('columnStatus')}"><span class="status status-${item.status}">${t(`leadStatus_${item.status}`)}</span><br><span class="muted">${assignee}</span></td>
<td data-label="${t('columnKind')}">${t(item.type === 'COMPANY' ? 'kindCOMPANY' : 'kindCUSTOMER')}</td>
<td data-label="${t('columnOrigin')}">${origin}</td>
<td data-label="${t('columnRefs')}">${refs}</td>
<td data-label="${t('columnPushes')}">${t('pushCounts', { created: item.created, merged: item.merged })}</td>
<td data-label="${t('createdAt')}"><time datetime="${item.createdAt}">${formats.dateTime(item.createdAt)}</time></td>
<td data-label="${t('columnChanged')}"><time datetime="${item.updatedAt}">${formats.dateTime(item.updatedAt)}</time></td>
</tr>`;
}

/** The statuses as tabs with their counts: all of the distribution's leads, whatever else is filtered. */
function statusTabs(context: PageContext, view: InboxView) {
  const { t, formats } = context;
  const total = [...view.counts.values()].reduce((sum, n) => sum + n, 0);
  const tab = (status: Status | undefined, label: string, count: number) => {
    const current = view.params.status === status;
    return html`<li><a href="/app?${inboxSearchParams(view.params, { status: status ?? '' }).toString()}"${current ? html` aria-current="page"` : ''}>${label} <span class="count">${formats.number(count)}</span></a></li>`;
  };
  return html`<nav class="statuses" aria-label="${t('statusTabs')}"><ul>
${tab(undefined, t('allStatuses'), total)}
${LEAD_STATUSES.map((status) => tab(status, t(`leadStatus_${status}`), view.counts.get(status) ?? 0))}
</ul></nav>`;
}

function option(value: string, label: string, selected: string | undefined) {
  return html`<option value="${value}"${value === (selected ?? '') ? html` selected` : ''}>${label}</option>`;
}

function filterForm(context: PageContext, params: InboxParams) {
  const { t } = context;
  const select = (name: string, label: string, options: ReturnType<typeof option>[]) =>
    html`<div><label for="${name}">${label}</label><select id="${name}" name="${name}">${options}</select></div>`;
  return html`<form class="filters" method="get" action="/app" role="search" aria-label="${t('filters')}">
<div class="wide"><label for="q">${t('searchLabel')}</label>
<input type="search" id="q" name="q" value="${params.search}" maxlength="200" aria-describedby="q-hint">
<p class="hint" id="q-hint">${t('searchHint')}</p></div>
${select('status', t('columnStatus'), [option('', t('allStatuses'), params.status), ...LEAD_STATUSES.map((s) => option(s, t(`leadStatus_${s}`), params.status))])}
${select('assignee', t('assignee'), [option('', t('anyone'), params.assignee), option('mine', t('mine'), params.assignee), option('none', t('unassigned'), params.assignee)])}
${select('kind', t('columnKind'), [option('', t('anyKind'), params.kind), option('CUSTOMER', t('kindCUSTOMER'), params.kind), option('COMPANY', t('kindCOMPANY'), params.kind)])}
<div><label for="origin">${t('columnOrigin')}</label><input type="text" id="origin" name="origin" value="${params.origin ?? ''}" maxlength="200"></div>
<div><label for="from">${t('receivedFrom')}</label><input type="date" id="from" name="from" value="${params.from ?? ''}"></div>
<div><label for="to">${t('receivedTo')}</label><input type="date" id="to" name="to" value="${params.to ?? ''}"></div>
${select('duplicates', t('duplicatesFilter'), [option('', t('anyDuplicates'), params.duplicates), option('possible', t('possibleDuplicates'), params.duplicates)])}
${select('sort', t('sortBy'), [option('changed', t('sortChanged'), params.sort), option('received', t('sortReceived'), params.sort)])}
<div class="actions"><button type="submit">${t('searchButton')}</button></div>
</form>`;
}

export function renderInbox(context: PageContext, page: InboxPage, view: InboxView): string {
  const { t } = context;
  const { params } = view;
  const filtered = inboxSearchParams(params).toString() !== '';
  const empty = params.search ? t('noResults', { q: params.search }) : filtered ? t('noMatches') : t('noLeads');
  const caption = params.search
    ? t('resultsFor', { q: params.search })
    : t(params.sort === 'received' ? 'leadsByReceived' : 'leadsTable');
  const table =
    page.items.length === 0
      ? html`<p class="notice" role="status">${empty}</p>`
      : html`<table class="stack wide">
<caption>${caption}</caption>
<thead><tr><th scope="col">${t('columnName')}</th><th scope="col">${t('columnStatus')}</th><th scope="col">${t('columnKind')}</th><th scope="col">${t('columnOrigin')}</th><th scope="col">${t('columnRefs')}</th><th scope="col">${t('columnPushes')}</th><th scope="col">${t('createdAt')}</th><th scope="col">${t('columnChanged')}</th></tr></thead>
<tbody>${page.items.map((item) => row(context, item, view))}</tbody>
</table>`;
  const query = inboxSearchParams(params);
  const pager = html`<nav class="pager" aria-label="${t('paging')}">
${view.isFirstPage ? '' : html`<a href="/app${query.size > 0 ? `?${query}` : ''}">${t('newestLeads')}</a>`}
${view.nextHref ? html`<a href="${ownHref(view.nextHref)}" rel="next">${t('olderLeads')}</a>` : ''}
${filtered ? html`<a href="/app">${t('clearSearch')}</a>` : ''}
<a href="/app/export.csv${query.size > 0 ? `?${query}` : ''}" download>${t('exportCsv')}</a>
</nav>`;
  return renderPage(context, {
    title: t('inboxTitle'),
    body: html`${statusTabs(context, view)}${filterForm(context, params)}${table}${pager}`,
    inboxCurrent: true,
  });
}
