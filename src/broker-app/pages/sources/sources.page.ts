// Where leads come from (docs/design.md section 13, `/app/sources`): for a period, per origin
// and per sender, the leads received (new leads and updates), the share of the new leads
// contacted, quoted, won and lost now, the win rate and the median time to the first status
// change; and the weekly chart of leads received and won, drawn by the server, with its
// numbers in the table beside it. The same figures as the API's .../stats/sources, and as CSV.
import { type Html, html } from '../../../html/html.ts';
import type { SourceStats } from '../../../party/index.ts';
import { type PageContext, renderPage } from '../layout.ts';
import { weeklyChart } from './weekly-chart.ts';

export interface SourcesView {
  readonly stats: SourceStats;
  /** `token:<id>`, `client:<id>` or `user:<id>` -> how the broker knows the sender. */
  readonly senders: ReadonlyMap<string, { readonly kind: 'token' | 'user' | 'client'; readonly name: string | null }>;
}

type Counts = Omit<SourceStats['origins'][number], 'origin'>;

function figures(context: PageContext, counts: Counts): Html {
  const { t, formats } = context;
  const share = (n: number) =>
    counts.created === 0
      ? formats.number(n)
      : html`${formats.number(n)} <span class="muted">(${Math.round((n / counts.created) * 100)}%)</span>`;
  const cell = (label: string, value: Html | string) => html`<td class="amount" data-label="${label}">${value}</td>`;
  return html`${cell(t('columnReceived'), formats.number(counts.received))}${cell(t('columnCreated'), formats.number(counts.created))}${cell(t('columnMerged'), formats.number(counts.merged))}${cell(t('columnContacted'), share(counts.contacted))}${cell(t('columnQuoted'), share(counts.quoted))}${cell(t('columnWon'), share(counts.won))}${cell(t('columnLost'), share(counts.lost))}${cell(t('columnWinRate'), counts.win_rate === null ? t('notGiven') : `${Math.round(counts.win_rate * 1000) / 10}%`)}${cell(t('columnReaction'), counts.median_hours_to_first_status === null ? t('notGiven') : t('hoursValue', { n: formats.number(counts.median_hours_to_first_status) }))}`;
}

function table(context: PageContext, id: string, title: string, nameHeader: string, rows: Array<[string, Counts]>) {
  const { t } = context;
  return html`<section class="card" aria-labelledby="${id}"><h2 id="${id}">${title}</h2>
<table class="stack wide">
<thead><tr><th scope="col">${nameHeader}</th><th scope="col" class="amount">${t('columnReceived')}</th><th scope="col" class="amount">${t('columnCreated')}</th><th scope="col" class="amount">${t('columnMerged')}</th><th scope="col" class="amount">${t('columnContacted')}</th><th scope="col" class="amount">${t('columnQuoted')}</th><th scope="col" class="amount">${t('columnWon')}</th><th scope="col" class="amount">${t('columnLost')}</th><th scope="col" class="amount">${t('columnWinRate')}</th><th scope="col" class="amount">${t('columnReaction')}</th></tr></thead>
<tbody>${rows.map(([name, counts]) => html`<tr><th scope="row">${name}</th>${figures(context, counts)}</tr>`)}</tbody>
</table></section>`;
}

export function renderSources(context: PageContext, view: SourcesView): string {
  const { t, formats } = context;
  const { stats } = view;
  const query = `from=${stats.from}&to=${stats.to}`;
  const senderName = (sender: string) => {
    const known = view.senders.get(sender);
    if (known?.kind === 'token') return t('senderToken', { name: known.name ?? sender.slice(6, 14) });
    if (known?.kind === 'user') return t('senderUser', { name: known.name ?? sender.slice(5, 13) });
    if (known?.kind === 'client') return t('senderClient', { name: known.name ?? sender.slice(7, 15) });
    return sender;
  };
  const period = html`<form class="filters" method="get" action="/app/sources" aria-label="${t('sourcesTitle')}">
<div><label for="from">${t('periodFrom')}</label><input type="date" id="from" name="from" value="${stats.from}" aria-describedby="period-hint" required></div>
<div><label for="to">${t('periodTo')}</label><input type="date" id="to" name="to" value="${stats.to}" aria-describedby="period-hint" required></div>
<div class="actions"><button type="submit">${t('showPeriod')}</button></div>
<p class="hint wide" id="period-hint">${t('periodHint')}</p>
</form>`;
  const week = (day: string) => formats.date(day);
  const chart = html`<div class="weekly">
<section class="card" aria-labelledby="weekly-title"><h2 id="weekly-title">${t('weeklyTitle')}</h2>
${weeklyChart(stats.weeks, {
  title: t('weeklyTitle'),
  description: t('weeklyChart', { from: formats.date(stats.from), to: formats.date(stats.to) }),
  received: t('legendReceived'),
  won: t('legendWon'),
  week,
})}</section>
<section class="card" aria-label="${t('weeklyTitle')}"><table>
<thead><tr><th scope="col">${t('columnWeek')}</th><th scope="col" class="amount">${t('legendReceived')}</th><th scope="col" class="amount">${t('legendWon')}</th></tr></thead>
<tbody>${stats.weeks.map((w) => html`<tr><th scope="row">${week(w.week)}</th><td class="amount" data-label="${t('legendReceived')}">${formats.number(w.received)}</td><td class="amount" data-label="${t('legendWon')}">${formats.number(w.won)}</td></tr>`)}</tbody>
</table></section></div>`;
  const body =
    stats.origins.length === 0
      ? html`${period}<p class="notice" role="status">${t('noSources')}</p>`
      : html`${period}<p class="hint">${t('sharesHint')}</p>
${table(
  context,
  'by-origin',
  t('byOrigin'),
  t('columnOrigin'),
  stats.origins.map((o) => [o.origin ?? t('notGiven'), o]),
)}
${table(
  context,
  'by-sender',
  t('bySender'),
  t('columnSender'),
  stats.senders.map((s) => [senderName(s.sender), s]),
)}
${chart}
<nav class="pager" aria-label="${t('paging')}"><a href="/app/sources.csv?${query}" download>${t('sourcesCsv')}</a></nav>`;
  return renderPage(context, { title: t('sourcesTitle'), body, sourcesCurrent: true });
}
