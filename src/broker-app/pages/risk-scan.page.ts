// The risk scan (docs/design.md section 7, `/app/risk-scan/parties/{id}`): each risk object with
// the coverages that point at it and its insured value, counted once however many coverages
// insure it (section 13: a car worth 22,000 with liability and omnium cover is insured for
// 22,000, not 44,000): the highest any running coverage gives it. An object no coverage of a
// running policy covers is flagged (an offer or a terminated policy covers nothing yet or
// any more). Coverages tied to no risk object are listed apart.
import { type Decimal, parseDecimal } from '../formatting/decimal.ts';
import { formatValue } from './field-values.ts';
import { html, type Html } from '../../html/html.ts';
import type { PageContext } from './layout.ts';
import type { Lead } from '../lead-data.ts';
import { objectTitle, renderLeadPage, riskObjects } from './lead-page.ts';

type Policy = Lead['insurance_policies'][number];
type Coverage = Policy['coverages'][number];

const covers = (policy: Policy) => policy.type !== 'OFFER' && policy.type !== 'TERMINATED';

function coverageTable(
  context: PageContext,
  entries: ReadonlyArray<{ policy: Policy; coverage: Coverage }>,
  caption: string,
  total?: Decimal,
): Html {
  const { t, formats } = context;
  const rows = entries.map(
    ({ policy, coverage }) => html`<tr>
<td>${policy.name ?? policy.policy_nr ?? t('policy')}${policy.type ? html` <span class="muted">(${formatValue(context, 'type', policy.type)})</span>` : ''}</td>
<td data-label="${t('field_insurance_company')}">${policy.insurance_company ?? t('notGiven')}</td>
<td data-label="${t('coverage')}">${coverage.name ?? t('coverage')}</td>
<td class="amount" data-label="${t('field_insured_value')}">${formatValue(context, 'insured_value', coverage.insured_value)}</td>
<td class="amount" data-label="${t('field_premium')}">${formatValue(context, 'premium', coverage.premium)}${coverage.payment_interval ? html` <span class="muted">${formatValue(context, 'payment_interval', coverage.payment_interval)}</span>` : ''}</td>
</tr>`,
  );
  // The section's heading already names the object: the caption is for screen readers only.
  return html`<table class="stack"><caption class="sr-only">${caption}</caption>
<thead><tr><th scope="col">${t('policy')}</th><th scope="col">${t('field_insurance_company')}</th><th scope="col">${t('coverage')}</th><th scope="col" class="amount">${t('field_insured_value')}</th><th scope="col" class="amount">${t('field_premium')}</th></tr></thead>
<tbody>${rows}</tbody>
${total === undefined ? '' : html`<tfoot><tr class="total"><th scope="row" colspan="3">${t('insuredOnce')}</th><td class="amount" data-insured>${formats.money(total)}</td><td></td></tr></tfoot>`}
</table>`;
}

export function renderRiskScan(context: PageContext, lead: Lead): string {
  const { t } = context;
  const all = lead.insurance_policies.flatMap((policy) => policy.coverages.map((coverage) => ({ policy, coverage })));
  const sections = riskObjects(lead).map((object) => {
    const entries = all.filter(({ coverage }) => coverage.risk_object_id === object.risk_object_id);
    const covered = entries.some(({ policy }) => covers(policy));
    // The object's insured value once: the highest of its running coverages', exactly.
    const insured = entries
      .filter(({ policy }) => covers(policy))
      .map(({ coverage }) => parseDecimal(coverage.insured_value) ?? 0n)
      .reduce((highest, value) => (value > highest ? value : highest), 0n);
    const title = objectTitle(context, object);
    return html`<section class="card" aria-labelledby="scan-${object.risk_object_id}">
<h2 id="scan-${object.risk_object_id}">${title} ${covered ? html`<span class="flag good">${t('covered')}</span>` : html`<span class="flag bad">${t('uncovered')}</span>`}</h2>
${entries.length === 0 ? html`<p>${t('noCoverages')}</p>` : coverageTable(context, entries, `${t('coverages')}: ${title}`, insured)}
</section>`;
  });
  const unlinked = all.filter(({ coverage }) => coverage.risk_object_id === undefined);
  const body = html`${sections.length === 0 ? html`<p>${t('noRiskObjects')}</p>` : sections}
${unlinked.length === 0 ? '' : html`<section class="card"><h2>${t('unlinkedCoverages')}</h2>${coverageTable(context, unlinked, t('unlinkedCoverages'))}</section>`}`;
  return renderLeadPage(context, lead, 'risk-scan', body);
}
