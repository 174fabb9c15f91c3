// The advisory (docs/design.md section 7, `/app/advisory/parties/{id}`): the portfolio's
// premiums as yearly amounts per package, per insurer and in total (advisory.ts does the
// exact arithmetic; this only lays it out).
import { type AdvisoryLine, advisoryOf } from '../advisory.ts';
import { formatValue } from '../fields.ts';
import { html, type Html } from '../html.ts';
import type { PageContext } from '../layout.ts';
import type { Lead } from '../lead-data.ts';
import { renderLeadPage } from './party.page.ts';

function line(context: PageContext, entry: AdvisoryLine): Html {
  const { t, formats } = context;
  const notes = [
    entry.counted ? '' : t('notCounted', { type: formatValue(context, 'type', entry.type) }),
    entry.intervalAssumed ? t('intervalAssumed') : '',
  ].filter(Boolean);
  return html`<tr>
<th scope="row">${entry.name ?? (entry.kind === 'package' ? t('packages') : t('policy'))}${notes.length > 0 ? html`<br><span class="muted">${notes.join('; ')}</span>` : ''}</th>
<td>${entry.insurer ?? t('unknownInsurer')}</td>
<td class="amount">${entry.premium === undefined ? t('notGiven') : formats.money(entry.premium)}${entry.interval && entry.premium !== undefined ? html` <span class="muted">${formatValue(context, 'payment_interval', entry.interval)}</span>` : ''}</td>
<td class="amount">${entry.yearly === undefined ? t('notGiven') : entry.counted ? formats.money(entry.yearly) : html`<span class="muted">${formats.money(entry.yearly)}</span>`}</td>
</tr>`;
}

export function renderAdvisory(context: PageContext, lead: Lead): string {
  const { t, formats } = context;
  const advisory = advisoryOf(lead);
  const packages = advisory.packages.map(
    (group, index) => html`<table aria-labelledby="package-${index}">
<caption id="package-${index}">${group.id === null ? t('noPackage') : (group.name ?? t('packages'))}</caption>
<thead><tr><th scope="col">${t('policy')}</th><th scope="col">${t('field_insurance_company')}</th><th scope="col" class="amount">${t('field_premium')}</th><th scope="col" class="amount">${t('yearlyPremium')}</th></tr></thead>
<tbody>${group.lines.map((entry) => line(context, entry))}</tbody>
<tfoot><tr class="total"><th scope="row" colspan="3">${group.id === null ? t('subtotal') : t('packageTotal')}</th><td class="amount">${formats.money(group.total)}</td></tr></tfoot>
</table>`,
  );
  const insurers = html`<table aria-labelledby="per-insurer">
<thead><tr><th scope="col">${t('field_insurance_company')}</th><th scope="col" class="amount">${t('yearlyPremium')}</th></tr></thead>
<tbody>${advisory.insurers.map((entry) => html`<tr><th scope="row">${entry.insurer ?? t('unknownInsurer')}</th><td class="amount">${formats.money(entry.total)}</td></tr>`)}</tbody>
<tfoot><tr class="total"><th scope="row">${t('totalPerYear')}</th><td class="amount" data-total>${formats.money(advisory.total)}</td></tr></tfoot>
</table>`;
  const body =
    advisory.packages.length === 0
      ? html`<p>${t('noPremiums')}</p>`
      : html`<h2>${t('perPackage')}</h2>${packages}<h2 id="per-insurer">${t('perInsurer')}</h2>${insurers}`;
  return renderLeadPage(context, lead, 'advisory', body);
}
