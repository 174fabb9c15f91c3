// The party page (docs/design.md section 7, `/app/parties/{id}`, the lead's `href`): the
// broker's work on it (work-forms.ts), the person's data, the prospect, the lead's origin
// with the link back to the sender, external refs and callbacks, risk objects with their
// revision history (what changed), packages, policies and their coverages.
import { ownHref, webHref } from '../../html/href.ts';
import { html, type Html } from '../../html/html.ts';
import { fieldLabel, fieldList, formatValue } from './field-values.ts';
import type { Lead, LeadPageData, Revision } from '../lead-data.ts';
import type { PageContext } from './layout.ts';
import { objectData, objectTitle, type RiskObject, renderLeadPage, riskObjects } from './lead-page.ts';
import { revisionChanges } from './revision-changes.ts';
import { notesSection, type WorkForm, workSection } from './work-forms.ts';

const PROSPECT_ORDER = [
  'first_name',
  'last_name',
  'name',
  'birth',
  'gender',
  'email',
  'telephonenr',
  'language',
  'address',
  'enterprise_nr',
  'legal_form',
];
const CAR_ORDER = [
  'brand',
  'model',
  'version',
  'vin',
  'license_plate',
  'first_registration',
  'fuel_type',
  'kw',
  'mileage',
  'value',
];
const RESIDENCE_ORDER = ['address', 'type', 'construction_year', 'rooms', 'value'];
const PACKAGE_ORDER = ['name', 'package_nr', 'insurance_company', 'premium', 'payment_interval'];
const POLICY_ORDER = ['name', 'policy_nr', 'type', 'insurance_company', 'premium', 'payment_interval'];

function history(context: PageContext, revisions: readonly Revision[]): Html {
  const { t, formats } = context;
  const entries = revisions.map((revision, index) => {
    const previous = revisions[index - 1];
    const label = t('revisionOf', { n: revision.revision_nr, at: formats.dateTime(revision.created_at) });
    if (!previous) return html`<li><h4>${label}</h4><p>${t('firstRevision')}</p></li>`;
    const changes = revisionChanges(previous.data, revision.data);
    const rows = changes.map(
      (change) => html`<tr><th scope="row">${fieldLabel(context, change.field)}</th>
<td data-label="${t('changeBefore')}">${change.before === undefined ? t('notGiven') : html`<del>${formatValue(context, change.field, change.before)}</del>`}</td>
<td data-label="${t('changeAfter')}">${change.after === undefined ? t('notGiven') : html`<ins>${formatValue(context, change.field, change.after)}</ins>`}</td></tr>`,
    );
    return html`<li><h4>${label}</h4>${
      changes.length === 0
        ? html`<p>${t('noChange')}</p>`
        : html`<table class="stack">
<thead><tr><th scope="col">${t('changeField')}</th><th scope="col">${t('changeBefore')}</th><th scope="col">${t('changeAfter')}</th></tr></thead>
<tbody>${rows}</tbody></table>`
    }</li>`;
  });
  return html`<details><summary>${t('revisionHistory')} (${revisions.length})</summary><ol class="revisions">${entries.reverse()}</ol></details>`;
}

function riskObjectSection(context: PageContext, object: RiskObject, revisions: readonly Revision[]): Html {
  const { t, formats } = context;
  return html`<section class="card" aria-labelledby="ro-${object.risk_object_id}">
<h3 id="ro-${object.risk_object_id}">${objectTitle(context, object)}</h3>
<p class="muted">${t('currentRevision', { n: object.revision_nr, at: formats.dateTime(object.created_at) })}</p>
${fieldList(context, objectData(object), object.risk_object_type === 'CAR' ? CAR_ORDER : RESIDENCE_ORDER)}
${history(context, revisions)}
</section>`;
}

function policySection(context: PageContext, lead: Lead, policy: Lead['insurance_policies'][number]): Html {
  const { t } = context;
  const { id: _id, external_refs: refs, coverages, policy_package_id: packageId, ...fields } = policy;
  const pkg = lead.policy_packages.find((p) => p.id === packageId);
  const objects = riskObjects(lead);
  const coverageRows = coverages.map((coverage) => {
    const object = objects.find((o) => o.risk_object_id === coverage.risk_object_id);
    return html`<tr><th scope="row">${coverage.name ?? t('coverage')}</th>
<td class="amount" data-label="${t('field_insured_value')}">${formatValue(context, 'insured_value', coverage.insured_value)}</td>
<td class="amount" data-label="${t('field_premium')}">${formatValue(context, 'premium', coverage.premium)}${coverage.payment_interval ? html` <span class="muted">${formatValue(context, 'payment_interval', coverage.payment_interval)}</span>` : ''}</td>
<td data-label="${t('covers')}">${object ? html`<a href="#ro-${object.risk_object_id}">${objectTitle(context, object)}</a>` : t('notGiven')}</td></tr>`;
  });
  return html`<section class="card">
<h3>${typeof fields.name === 'string' ? fields.name : (fields.policy_nr ?? t('policy'))}</h3>
${fieldList(context, fields, POLICY_ORDER)}
${pkg ? html`<p>${t('packages')}: ${pkg.name ?? pkg.package_nr ?? pkg.id}</p>` : ''}
${refs.length > 0 ? html`<p>${t('externalRefs')}: ${refs.map((r) => (r.company ? `${r.company}: ${r.ref}` : r.ref)).join(', ')}</p>` : ''}
${
  coverages.length === 0
    ? html`<p>${t('noCoverages')}</p>`
    : html`<table class="stack"><caption>${t('coverages')}</caption>
<thead><tr><th scope="col">${t('coverage')}</th><th scope="col" class="amount">${t('field_insured_value')}</th><th scope="col" class="amount">${t('field_premium')}</th><th scope="col">${t('covers')}</th></tr></thead>
<tbody>${coverageRows}</tbody></table>`
}
</section>`;
}

/** Access and erasure requests (docs/personal-data.md, "Personal data"): the export, and the way to the erasure's confirmation. */
function personalDataSection(context: PageContext, lead: Lead): Html {
  const { t } = context;
  return html`<section class="card" id="personal-data" aria-labelledby="personal-data-title">
<h2 id="personal-data-title">${t('personalData')}</h2>
<p class="hint">${t('personalDataHint')}</p>
<p class="actions"><a href="/app/parties/${lead.party_id}/export.json" download>${t('downloadData')}</a> <a href="/app/parties/${lead.party_id}/erase" class="danger">${t('eraseParty')}</a></p>
</section>`;
}

/** Where the lead came from: origin, source and link back, all of its newest push (never mixed across pushes). */
function senderFields(context: PageContext, data: LeadPageData): Html {
  const { t, formats } = context;
  const push = data.latestPush;
  const payload = push ? (JSON.parse(push.payload) as Record<string, unknown>) : {};
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const origin = text(payload.origin);
  const source = text(payload.source);
  const backref = text(payload.backref);
  // A link only when it is an http(s) URL, whatever the push was checked against: else its text.
  const backrefLink = webHref(backref);
  return html`<dt>${t('lastPush')}</dt><dd>${push ? html`<time datetime="${push.received_at}">${formats.dateTime(push.received_at)}</time>` : t('notGiven')}</dd>
<dt>${t('origin')}</dt><dd>${origin ?? t('notGiven')}</dd>
<dt>${t('source')}</dt><dd>${source ?? t('notGiven')}</dd>
<dt>${t('backref')}</dt><dd>${backref ? html`${backrefLink ? html`<a href="${backrefLink}" rel="noopener noreferrer">${t('openBackref')}</a> ` : ''}<span class="muted">${backref}</span>` : t('notGiven')}</dd>`;
}

/** Other parties that may be this person (docs/api.md, "Possible duplicates"), each a link to its page. */
function duplicatesSection(context: PageContext, data: LeadPageData) {
  const { t } = context;
  if (data.duplicates.length === 0) return '';
  const items = data.duplicates.map(
    (item) =>
      html`<li><a href="${ownHref(`/app/parties/${item.party_id}`)}">${item.name}</a> <span class="muted">(${item.reasons.map((reason) => t(`duplicateReason_${reason}`)).join(', ')})</span> <a href="${ownHref(`/app/parties/${data.lead.party_id}/merge?from=${item.party_id}`)}">${t('mergeLink')}</a></li>`,
  );
  return html`<section class="card" aria-labelledby="duplicates"><h2 id="duplicates">${t('duplicatesFilter')}</h2><ul>${items}</ul></section>`;
}

export function renderParty(
  context: PageContext,
  data: LeadPageData,
  options: { saved?: 'work' | 'note' | undefined; form?: WorkForm } = {},
): string {
  const { t, formats } = context;
  const { lead, histories } = data;
  const { id: _id, type: _type, external_refs: refs, callbacks, ...prospect } = lead.prospect;
  const leadFields = html`<dl class="fields">
${senderFields(context, data)}
<dt>${t('createdAt')}</dt><dd><time datetime="${lead.created_at}">${formats.dateTime(lead.created_at)}</time></dd>
<dt>${t('updatedAt')}</dt><dd><time datetime="${lead.updated_at}">${formats.dateTime(lead.updated_at)}</time></dd>
<dt>${t('externalRefs')}</dt><dd>${refs.length === 0 ? t('none') : html`<ul>${refs.map((r) => html`<li>${r.company ? `${r.company}: ` : ''}${r.ref}</li>`)}</ul>`}</dd>
<dt>${t('callbacks')}</dt><dd>${callbacks.length === 0 ? t('none') : html`<ul>${callbacks.map((url) => html`<li>${url}</li>`)}</ul>`}</dd>
</dl>`;
  const objects = riskObjects(lead);
  const packages = lead.policy_packages.map((pkg) => {
    const { id: _packageId, ...fields } = pkg;
    return html`<section class="card"><h3>${pkg.name ?? pkg.package_nr ?? t('packages')}</h3>${fieldList(context, fields, PACKAGE_ORDER)}</section>`;
  });
  const body = html`<div class="grid">
${workSection(context, data, options.form, options.saved === 'work')}
${notesSection(context, data, options.form, options.saved === 'note')}
${personalDataSection(context, lead)}
${duplicatesSection(context, data)}
<section class="card" aria-labelledby="prospect"><h2 id="prospect">${t('prospect')} <span class="muted">(${t(lead.prospect.type === 'COMPANY' ? 'kindCOMPANY' : 'kindCUSTOMER')})</span></h2>
${fieldList(context, prospect as Record<string, unknown>, PROSPECT_ORDER)}</section>
<section class="card" aria-labelledby="lead"><h2 id="lead">${t('lead')}</h2>${leadFields}</section></div>
<h2>${t('riskObjects')}</h2>
${objects.length === 0 ? html`<p>${t('noRiskObjects')}</p>` : html`<div class="grid">${objects.map((object) => riskObjectSection(context, object, histories.get(object.risk_object_id) ?? []))}</div>`}
<h2>${t('packages')}</h2>
${packages.length === 0 ? html`<p>${t('noPackages')}</p>` : html`<div class="grid">${packages}</div>`}
<h2>${t('policies')}</h2>
${lead.insurance_policies.length === 0 ? html`<p>${t('noPolicies')}</p>` : html`<div class="grid">${lead.insurance_policies.map((policy) => policySection(context, lead, policy))}</div>`}`;
  return renderLeadPage(context, lead, 'party', body);
}
