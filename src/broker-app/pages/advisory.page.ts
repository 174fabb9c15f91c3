// The advisory (docs/design.md section 7, `/app/advisory/parties/{id}`): the portfolio's
// premiums as yearly amounts per package, per insurer and in total (advisory.ts does the
// exact arithmetic; this only lays it out). A package's total is its own premium where it
// has one, as on the lead page, with any difference from the sum of its policies said.
import { type AdvisoryLine, advisoryOf } from './advisory.ts';
import type { Decimal } from '../formatting/decimal.ts';
import { formatValue } from './field-values.ts';
import { html, type Html } from '../../html/html.ts';
import type { PageContext } from './layout.ts';
import type { Lead } from '../lead-data.ts';
import { renderLeadPage } from './lead-page.ts';

function priced(context: PageContext, premium: Decimal, interval: string | null): Html {
  return html`${context.formats.money(premium)}${interval ? html` <span class="muted">${formatValue(context, 'payment_interval', interval)}</span>` : ''}`;
}

/** A policy priced by its coverages: each coverage's premium with its own interval. */
function parts(context: PageContext, entry: AdvisoryLine): Html {
  const { t, formats } = context;
  return html`<ul class="parts">${entry.parts.map(
    (part) =>
      html`<li>${part.name ?? t('coverage')}: ${priced(context, part.premium, part.interval)} = ${formats.money(part.yearly)} ${t('perYear')}</li>`,
  )}</ul>`;
}

function line(context: PageContext, entry: AdvisoryLine): Html {
  const { t, formats } = context;
  const notes = [
    entry.inPackagePremium ? t('inPackagePremium') : '',
    entry.counted || entry.inPackagePremium ? '' : t('notCounted', { type: formatValue(context, 'type', entry.type) }),
    entry.intervalAssumed ? t('intervalAssumed') : '',
  ].filter(Boolean);
  const premium =
    entry.premium !== undefined
      ? priced(context, entry.premium, entry.interval)
      : entry.parts.length > 0
        ? html`${t('fromCoverages')}${parts(context, entry)}`
        : t('notGiven');
  return html`<tr${entry.kind === 'package' ? html` class="package-premium"` : ''}>
<th scope="row">${entry.kind === 'package' ? t('packagePremium') : (entry.name ?? t('policy'))}${notes.length > 0 ? html`<br><span class="muted">${notes.join('; ')}</span>` : ''}</th>
<td data-label="${t('field_insurance_company')}">${entry.insurer ?? t('unknownInsurer')}</td>
<td class="amount" data-label="${t('field_premium')}">${premium}</td>
<td class="amount" data-label="${t('yearlyPremium')}">${entry.yearly === undefined ? t('notGiven') : entry.counted ? formats.money(entry.yearly) : html`<span class="muted">${formats.money(entry.yearly)}</span>`}</td>
</tr>`;
}

/** Where a package premium differs from the sum of its policies: by how much, in words. */
function difference(context: PageContext, total: Decimal, policies: Decimal | undefined): Html {
  if (policies === undefined || policies === total) return html``;
  const { t, formats } = context;
  const key = total < policies ? 'packageCheaper' : 'packageDearer';
  const amount = total < policies ? policies - total : total - policies;
  return html`<p class="explained" data-difference>${t(key, { package: formats.money(total), policies: formats.money(policies), difference: formats.money(amount) })}</p>`;
}

export function renderAdvisory(context: PageContext, lead: Lead): string {
  const { t, formats } = context;
  const advisory = advisoryOf(lead);
  const packages = advisory.packages.map(
    (group, index) => html`<table class="stack" aria-labelledby="package-${index}">
<caption id="package-${index}">${group.id === null ? t('noPackage') : (group.name ?? t('packages'))}</caption>
<thead><tr><th scope="col">${t('policy')}</th><th scope="col">${t('field_insurance_company')}</th><th scope="col" class="amount">${t('field_premium')}</th><th scope="col" class="amount">${t('yearlyPremium')}</th></tr></thead>
<tbody>${group.lines.map((entry) => line(context, entry))}</tbody>
<tfoot><tr class="total"><th scope="row" colspan="3">${group.id === null ? t('subtotal') : t('packageTotal')}</th><td class="amount" data-package-total>${formats.money(group.total)}</td></tr></tfoot>
</table>${difference(context, group.total, group.policiesTotal)}`,
  );
  const insurers = html`<table class="stack" aria-labelledby="per-insurer">
<thead><tr><th scope="col">${t('field_insurance_company')}</th><th scope="col" class="amount">${t('yearlyPremium')}</th></tr></thead>
<tbody>${advisory.insurers.map((entry) => html`<tr><th scope="row">${entry.insurer ?? t('unknownInsurer')}</th><td class="amount" data-label="${t('yearlyPremium')}">${formats.money(entry.total)}</td></tr>`)}</tbody>
<tfoot><tr class="total"><th scope="row">${t('totalPerYear')}</th><td class="amount" data-total>${formats.money(advisory.total)}</td></tr></tfoot>
</table>`;
  const body =
    advisory.packages.length === 0
      ? html`<p>${t('noPremiums')}</p>`
      : html`<h2>${t('perPackage')}</h2>${packages}<h2 id="per-insurer">${t('perInsurer')}</h2>${insurers}`;
  return renderLeadPage(context, lead, 'advisory', body);
}
