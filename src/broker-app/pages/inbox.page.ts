// The lead inbox (docs/design.md sections 7, 13 and 16, `/app`): the distribution's leads with
// name, status, assignee, follow-up day, kind, origin, external refs and when received and
// changed; the leads per status as tabs; the search box, and the other filters folded behind
// one button (a <details>, no script); "Leads 1–25 of 120"; the order by clicking a column
// (any but the refs and the tick box) either way; "older" paging by keyset cursor, so a
// page holds while new leads arrive; a tick box per lead and the bulk form that assigns them
// or sets their status (bulk.routes.ts); and the CSV export of the same filtered list. On a
// phone each lead is one compact row (name and status, then assignee and when received).
import { ownHref } from '../../html/href.ts';
import { type Html, html, joinHtml } from '../../html/html.ts';
import { LEAD_STATUSES } from '../../party/index.ts';
import {
  defaultDirection,
  FOLLOW_UPS,
  type InboxParams,
  inboxSearchParams,
  type SortColumn,
  type Status,
} from '../inbox-filter.ts';
import type { InboxItem, InboxPage } from '../lead-data.ts';
import { displayName } from './field-values.ts';
import { type PageContext, renderPage } from './layout.ts';

export interface InboxView {
  readonly params: InboxParams;
  readonly counts: ReadonlyMap<Status, number>;
  /** User id -> username, for the assignee column. */
  readonly users: ReadonlyMap<string, string>;
  /** Who leads may be assigned to (active users), for the filter and the bulk form. */
  readonly assignable: readonly { readonly id: string; readonly name: string }[];
  /** How many leads the filter finds (`more`: at least that many). */
  readonly total: { readonly leads: number; readonly more: boolean };
  /** The place of the page's first lead in the filtered list, from 1. */
  readonly start: number;
  readonly nextHref: string | undefined;
  readonly isFirstPage: boolean;
  /** What the last bulk change did, shown once after it. */
  readonly bulk?: { readonly done: number; readonly refused: number } | 'nothing';
}

function row(context: PageContext, item: InboxItem, view: InboxView) {
  const { t, formats } = context;
  const name = displayName(item.type, item.fields) || t('notGiven');
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
  const pushes = item.created + item.merged;
  return html`<tr>
<td class="pick"><input type="checkbox" name="lead:${item.leadId}" value="1" id="pick-${item.leadId}" aria-label="${t('selectLead', { name })}"></td>
<th scope="row"><a href="/app/parties/${item.partyId}">${name}</a>${typeof item.fields.email === 'string' ? html`<span class="more"><br><span class="muted">${item.fields.email}</span></span>` : ''}</th>
<td class="state" data-label="${t('columnStatus')}"><span class="status status-${item.status}">${t(`leadStatus_${item.status}`)}</span></td>
<td class="who" data-label="${t('assignee')}">${item.assigneeId === null ? html`<span class="muted">${assignee}</span>` : assignee}</td>
<td class="due" data-label="${t('followUpOn')}">${item.followUpOn === null ? '' : html`<time datetime="${item.followUpOn}">${formats.date(item.followUpOn)}</time>`}</td>
<td class="more" data-label="${t('columnKind')}">${t(item.type === 'COMPANY' ? 'kindCOMPANY' : 'kindCUSTOMER')}</td>
<td class="more" data-label="${t('columnOrigin')}">${origin}</td>
<td class="more" data-label="${t('columnRefs')}">${refs}</td>
<td class="when" data-label="${t('createdAt')}"><time datetime="${item.createdAt}">${formats.dateTime(item.createdAt)}</time>${pushes > 1 ? html`<span class="more"><br><span class="muted">${t('receivedTimes', { n: pushes })}</span></span>` : ''}</td>
<td class="more" data-label="${t('columnChanged')}"><time datetime="${item.updatedAt}">${formats.dateTime(item.updatedAt)}</time></td>
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

/** How many filters (other than the search words and the status tabs) are set. */
function filtersOn(params: InboxParams): number {
  const set = [params.assignee, params.kind, params.origin, params.from, params.to, params.followUp, params.duplicates];
  return set.filter((value) => value !== undefined).length;
}

function filterForm(context: PageContext, view: InboxView) {
  const { t } = context;
  const { params } = view;
  const select = (name: string, label: string, options: ReturnType<typeof option>[]) =>
    html`<div><label for="${name}">${label}</label><select id="${name}" name="${name}">${options}</select></div>`;
  const on = filtersOn(params);
  const colleagues = view.assignable.map((user) => option(user.id, user.name, params.assignee));
  return html`<form class="filters" method="get" action="/app" role="search" aria-label="${t('filters')}">
<div class="wide"><label for="q">${t('searchLabel')}</label>
<input type="search" id="q" name="q" value="${params.search}" maxlength="200" aria-describedby="q-hint">
<p class="hint" id="q-hint">${t('searchHint')}</p></div>
${params.status ? html`<input type="hidden" name="status" value="${params.status}">` : ''}
<details class="more-filters"><summary>${on > 0 ? t('filtersOn', { n: on }) : t('filtersButton')}</summary>
<div class="fields">
${select('assignee', t('assignee'), [option('', t('anyone'), params.assignee), option('mine', t('mine'), params.assignee), option('none', t('unassigned'), params.assignee), ...colleagues])}
${select('follow_up', t('followUpOn'), [option('', t('followUpAny'), params.followUp), ...FOLLOW_UPS.map((f) => option(f, t(`followUp_${f}`), params.followUp))])}
${select('kind', t('columnKind'), [option('', t('anyKind'), params.kind), option('CUSTOMER', t('kindCUSTOMER'), params.kind), option('COMPANY', t('kindCOMPANY'), params.kind)])}
<div><label for="origin">${t('columnOrigin')}</label><input type="text" id="origin" name="origin" value="${params.origin ?? ''}" maxlength="200"></div>
<div><label for="from">${t('receivedFrom')}</label><input type="date" id="from" name="from" value="${params.from ?? ''}"></div>
<div><label for="to">${t('receivedTo')}</label><input type="date" id="to" name="to" value="${params.to ?? ''}"></div>
${select('duplicates', t('duplicatesFilter'), [option('', t('anyDuplicates'), params.duplicates), option('possible', t('possibleDuplicates'), params.duplicates)])}
${select('sort', t('sortBy'), [option('changed', t('orderChanged'), params.sort), option('received', t('orderReceived'), params.sort), option('follow_up', t('orderFollowUp'), params.sort), option('name', t('columnName'), params.sort), option('status', t('columnStatus'), params.sort), option('assignee', t('assignee'), params.sort), option('kind', t('columnKind'), params.sort), option('origin', t('columnOrigin'), params.sort)])}
${select('dir', t('direction'), [option('desc', t('directionDesc'), params.direction), option('asc', t('directionAsc'), params.direction)])}
</div></details>
<div class="actions"><button type="submit">${t('searchButton')}</button></div>
</form>`;
}

/** A column header that orders the list by it: again, the other way round. */
function sortHeader(params: InboxParams, column: SortColumn, label: string): Html {
  const current = params.sort === column;
  const direction = current ? params.direction : defaultDirection(column);
  const next = current ? (direction === 'asc' ? 'desc' : 'asc') : direction;
  const query = inboxSearchParams({ ...params, sort: column, direction: next });
  const arrow = current ? (direction === 'asc' ? ' ↑' : ' ↓') : '';
  return html`<th scope="col"${current ? html` aria-sort="${direction === 'asc' ? 'ascending' : 'descending'}"` : ''}><a href="/app${query.size > 0 ? `?${query}` : ''}">${label}<span aria-hidden="true">${arrow}</span></a></th>`;
}

function bulkForm(context: PageContext, view: InboxView) {
  const { t } = context;
  const back = inboxSearchParams(view.params).toString();
  return html`<fieldset class="bulk"><legend>${t('bulkTitle')}</legend>
<p class="hint" id="bulk-hint">${t('bulkHint')}</p>
<input type="hidden" name="csrf" value="${context.user?.csrf ?? ''}">
<input type="hidden" name="back" value="${back}">
<div><label for="bulk-assignee">${t('bulkAssign')}</label><select id="bulk-assignee" name="assignee">${option('', t('bulkKeep'), '')}${option('none', t('unassigned'), '')}${view.assignable.map((user) => option(user.id, user.name, ''))}</select></div>
<div><label for="bulk-status">${t('bulkStatus')}</label><select id="bulk-status" name="status">${option('', t('bulkKeep'), '')}${LEAD_STATUSES.map((s) => option(s, t(`leadStatus_${s}`), ''))}</select></div>
<div class="actions"><button type="submit" aria-describedby="bulk-hint">${t('bulkApply')}</button></div>
</fieldset>`;
}

function bulkNotice(context: PageContext, view: InboxView): Html | string {
  const { t } = context;
  if (view.bulk === undefined) return '';
  if (view.bulk === 'nothing') return html`<p class="refusal" role="status">${t('bulkNothing')}</p>`;
  const { done, refused } = view.bulk;
  return html`<p class="notice" role="status">${t('bulkDone', { done, total: done + refused })}${refused > 0 ? html` ${t('bulkRefused', { refused })}` : ''}</p>`;
}

export function renderInbox(context: PageContext, page: InboxPage, view: InboxView): string {
  const { t, formats } = context;
  const { params } = view;
  const filtered = inboxSearchParams(params).toString() !== '';
  const empty = params.search ? t('noResults', { q: params.search }) : filtered ? t('noMatches') : t('noLeads');
  const range = {
    first: formats.number(view.start),
    last: formats.number(view.start + page.items.length - 1),
    total: formats.number(view.total.leads),
  };
  const count = t(view.total.more ? 'leadsRangeMore' : 'leadsRange', range);
  const caption = params.search ? `${t('resultsFor', { q: params.search })}: ${count}` : count;
  const table =
    page.items.length === 0
      ? html`<p class="notice" role="status">${empty}</p>`
      : html`<form method="post" action="/app/bulk" class="bulk">
<table class="stack wide inbox">
<caption>${caption}</caption>
<thead><tr><th scope="col">${t('selectColumn')}</th>${sortHeader(params, 'name', t('columnName'))}${sortHeader(params, 'status', t('columnStatus'))}${sortHeader(params, 'assignee', t('assignee'))}${sortHeader(params, 'follow_up', t('followUpOn'))}${sortHeader(params, 'kind', t('columnKind'))}${sortHeader(params, 'origin', t('columnOrigin'))}<th scope="col">${t('columnRefs')}</th>${sortHeader(params, 'received', t('createdAt'))}${sortHeader(params, 'changed', t('columnChanged'))}</tr></thead>
<tbody>${page.items.map((item) => row(context, item, view))}</tbody>
</table>
${bulkForm(context, view)}
</form>`;
  const query = inboxSearchParams(params);
  const pager = html`<nav class="pager" aria-label="${t('paging')}">
${view.isFirstPage ? '' : html`<a href="/app${query.size > 0 ? `?${query}` : ''}">${t('newestLeads')}</a>`}
${view.nextHref ? html`<a href="${ownHref(view.nextHref)}" rel="next">${t('olderLeads')}</a>` : ''}
${filtered ? html`<a href="/app">${t('clearSearch')}</a>` : ''}
<a href="/app/export.csv${query.size > 0 ? `?${query}` : ''}" download>${t('exportCsv')}</a>
</nav>`;
  return renderPage(context, {
    title: t('inboxTitle'),
    body: html`${bulkNotice(context, view)}${statusTabs(context, view)}${filterForm(context, view)}${table}${pager}`,
    inboxCurrent: true,
  });
}
