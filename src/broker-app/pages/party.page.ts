// The party page (docs/design.md section 7, `/app/parties/{id}`, the lead's `href`): the
// prospect, the lead's origin with the link back to the sender, external refs and
// callbacks, risk objects with their revision history (what changed), packages, policies
// and their coverages.
import { fieldLabel, fieldList, formatValue } from '../formatting/field-values.ts';
import { webHref } from '../../html/href.ts';
import { html, type Html } from '../../html/html.ts';
import { type LeadTab, leadTabs, type PageContext, renderPage } from './layout.ts';
import type { Lead, LeadPageData, Revision } from '../lead-data.ts';
import { LEAD_STATUSES } from '../../party/index.ts';
import type { TextKey } from '../texts/index.ts';
import { revisionChanges } from './revision-changes.ts';
import { displayName } from './inbox.page.ts';

export const PROSPECT_ORDER = [
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
export const CAR_ORDER = [
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
export const RESIDENCE_ORDER = ['address', 'type', 'construction_year', 'rooms', 'value'];
const PACKAGE_ORDER = ['name', 'package_nr', 'insurance_company', 'premium', 'payment_interval'];
const POLICY_ORDER = ['name', 'policy_nr', 'type', 'insurance_company', 'premium', 'payment_interval'];

export type RiskObject =
  | Lead['risk_object_revisions']['cars'][number]
  | Lead['risk_object_revisions']['residences'][number];

/** The fields of a risk object revision that are its data, not its identity. */
export function objectData(object: RiskObject): Record<string, unknown> {
  const {
    self: _self,
    risk_object_id: _id,
    risk_object_revision_id: _revision,
    risk_object_type: _type,
    revision_nr: _nr,
    created_at: _at,
    ...data
  } = object;
  return data;
}

export function riskObjects(lead: Lead): RiskObject[] {
  return [...lead.risk_object_revisions.cars, ...lead.risk_object_revisions.residences];
}

export function objectTitle(context: PageContext, object: RiskObject): string {
  const data = objectData(object) as Record<string, unknown>;
  const detail =
    object.risk_object_type === 'CAR'
      ? [data.brand, data.model, data.license_plate ?? data.vin].filter((part) => typeof part === 'string').join(' ')
      : formatValue(context, 'address', data.address);
  return `${context.t(object.risk_object_type)}${detail ? `: ${detail}` : ''}`;
}

/** The page heading of every lead page: the prospect's name. */
export function leadTitle(context: PageContext, lead: Lead): string {
  return displayName(lead.prospect.type, lead.prospect as Record<string, unknown>) || context.t('notGiven');
}

export function renderLeadPage(context: PageContext, lead: Lead, tab: LeadTab, body: Html, heading?: string): string {
  return renderPage(context, {
    title: heading ?? leadTitle(context, lead),
    body: html`${leadTabs(context, lead.party_id, tab)}${body}`,
  });
}

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

/** A refused form, shown again: what was typed and which fields (or checks) refused it. */
export type WorkForm =
  | {
      readonly kind: 'work';
      readonly status: number;
      readonly targets: readonly string[];
      readonly values: { readonly status: string; readonly lost_reason: string; readonly assignee: string };
    }
  | {
      readonly kind: 'note';
      readonly status: number;
      readonly targets: readonly string[];
      readonly values: { readonly body: string };
    };

/** Each refusal in words: a field's own message, or why the form as a whole was not taken. */
const REFUSALS: Readonly<Record<string, TextKey>> = {
  status: 'refusedStatus',
  lost_reason: 'refusedLostReason',
  assignee: 'refusedAssignee',
  etag: 'refusedStale',
  note_missing: 'refusedNoteEmpty',
  note_max_length: 'refusedNoteLong',
};

function refusals(context: PageContext, form: WorkForm | undefined, kind: WorkForm['kind']): Html {
  if (form?.kind !== kind) return html``;
  const messages = [...new Set(form.targets.map((target) => REFUSALS[target] ?? 'refusedForm'))];
  return html`<div class="refusal" role="alert"><p>${context.t('formRefused')}</p><ul>${messages.map((key) => html`<li>${context.t(key)}</li>`)}</ul></div>`;
}

/** The broker's work on the lead: status, lost reason and assignee in one form. */
function workSection(context: PageContext, data: LeadPageData, form: WorkForm | undefined, saved: boolean): Html {
  const { t, formats } = context;
  const { lead } = data;
  const typed = form?.kind === 'work' ? form.values : undefined;
  const status = typed?.status ?? lead.status;
  const reason = typed?.lost_reason ?? lead.lost_reason ?? '';
  const assignee = typed?.assignee ?? lead.assignee ?? '';
  const invalid = (target: string) =>
    form?.kind === 'work' && form.targets.includes(target) ? html` aria-invalid="true"` : '';
  const assigneeName = lead.assignee === null ? t('unassigned') : (data.names.get(lead.assignee) ?? t('notGiven'));
  // A user disabled since stays the lead's assignee until someone picks another: still listed,
  // so saving a new status does not unassign the lead by itself.
  const choices =
    lead.assignee === null || data.users.some((u) => u.id === lead.assignee)
      ? data.users
      : [...data.users, { id: lead.assignee, name: assigneeName }];
  return html`<section class="card" id="work" aria-labelledby="work-title">
<h2 id="work-title">${t('work')}</h2>
<p><span class="status status-${lead.status}">${t(`leadStatus_${lead.status}`)}</span> ${t('statusSince', { at: formats.dateTime(lead.status_changed_at) })} · ${t('assignedTo', { name: assigneeName })}</p>
${saved ? html`<p class="notice" role="status">${t('workSaved')}</p>` : ''}
${refusals(context, form, 'work')}
<form method="post" action="/app/parties/${lead.party_id}/work" class="work">
<input type="hidden" name="csrf" value="${context.user?.csrf ?? ''}">
<input type="hidden" name="etag" value="${data.etag}">
<div><label for="status">${t('columnStatus')}</label><select id="status" name="status"${invalid('status')}>${LEAD_STATUSES.map((s) => html`<option value="${s}"${s === status ? html` selected` : ''}>${t(`leadStatus_${s}`)}</option>`)}</select></div>
<div><label for="lost_reason">${t('lostReason')}</label><input type="text" id="lost_reason" name="lost_reason" value="${reason}" maxlength="500" aria-describedby="lost-hint"${invalid('lost_reason')}><p class="hint" id="lost-hint">${t('lostReasonHint')}</p></div>
<div><label for="assignee">${t('assignee')}</label><select id="assignee" name="assignee"${invalid('assignee')}><option value="">${t('unassigned')}</option>${choices.map((u) => html`<option value="${u.id}"${u.id === assignee ? html` selected` : ''}>${u.name}</option>`)}</select></div>
<div class="actions"><button type="submit">${t('saveWork')}</button></div>
</form>
</section>`;
}

function notesSection(context: PageContext, data: LeadPageData, form: WorkForm | undefined, saved: boolean): Html {
  const { t, formats } = context;
  const typed = form?.kind === 'note' ? form.values.body : '';
  const notes = [...data.notes]
    .reverse()
    .map(
      (note) =>
        html`<li><p class="muted">${t('noteBy', { name: data.names.get(note.author_id) ?? t('notGiven'), at: formats.dateTime(note.created_at) })}</p><p class="note">${note.body}</p></li>`,
    );
  return html`<section class="card" id="notes" aria-labelledby="notes-title">
<h2 id="notes-title">${t('notes')}</h2>
${saved ? html`<p class="notice" role="status">${t('noteSaved')}</p>` : ''}
${refusals(context, form, 'note')}
<form method="post" action="/app/parties/${data.lead.party_id}/notes" class="note-form">
<input type="hidden" name="csrf" value="${context.user?.csrf ?? ''}">
<label for="note">${t('newNote')}</label>
<textarea id="note" name="body" rows="3" maxlength="10000"${form?.kind === 'note' ? html` aria-invalid="true"` : ''}>${typed}</textarea>
<div class="actions"><button type="submit">${t('addNote')}</button></div>
</form>
${notes.length === 0 ? html`<p>${t('noNotes')}</p>` : html`<ol class="notes">${notes}</ol>`}
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
