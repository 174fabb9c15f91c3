// The broker's work on the party page (docs/design.md sections 13 and 16): the follow-up
// form (status, lost reason, assignee, follow-up day, with the ETag the page was shown with) and the note form,
// each shown again after a refusal with what was typed and a message per field
// (broker-app/work.routes.ts handles their posts).
import { html, type Html } from '../../html/html.ts';
import { LEAD_STATUSES } from '../../party/index.ts';
import type { LeadPageData } from '../lead-data.ts';
import type { TextKey } from '../texts/index.ts';
import type { PageContext } from './layout.ts';

/** A refused form, shown again: what was typed and which fields (or checks) refused it. */
export type WorkForm =
  | {
      readonly kind: 'work';
      readonly status: number;
      readonly targets: readonly string[];
      readonly values: {
        readonly status: string;
        readonly lost_reason: string;
        readonly assignee: string;
        readonly follow_up_on: string;
      };
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
  follow_up_on: 'refusedFollowUp',
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
export function workSection(
  context: PageContext,
  data: LeadPageData,
  form: WorkForm | undefined,
  saved: boolean,
): Html {
  const { t, formats } = context;
  const { lead } = data;
  const typed = form?.kind === 'work' ? form.values : undefined;
  const status = typed?.status ?? lead.status;
  const reason = typed?.lost_reason ?? lead.lost_reason ?? '';
  const assignee = typed?.assignee ?? lead.assignee ?? '';
  const followUp = typed?.follow_up_on ?? lead.follow_up_on ?? '';
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
<p><span class="status status-${lead.status}">${t(`leadStatus_${lead.status}`)}</span> ${t('statusSince', { at: formats.dateTime(lead.status_changed_at) })} · ${lead.assignee === null ? t('notAssigned') : t('assignedTo', { name: assigneeName })}${lead.follow_up_on === null ? '' : html` · ${t('followUpDay', { day: formats.date(lead.follow_up_on) })}`}</p>
${saved ? html`<p class="notice" role="status">${t('workSaved')}</p>` : ''}
${refusals(context, form, 'work')}
<form method="post" action="/app/parties/${lead.party_id}/work" class="work">
<input type="hidden" name="csrf" value="${context.user?.csrf ?? ''}">
<input type="hidden" name="etag" value="${data.etag}">
<div><label for="status">${t('columnStatus')}</label><select id="status" name="status"${invalid('status')}>${LEAD_STATUSES.map((s) => html`<option value="${s}"${s === status ? html` selected` : ''}>${t(`leadStatus_${s}`)}</option>`)}</select></div>
<div><label for="lost_reason">${t('lostReason')}</label><input type="text" id="lost_reason" name="lost_reason" value="${reason}" maxlength="500" aria-describedby="lost-hint"${invalid('lost_reason')}><p class="hint" id="lost-hint">${t('lostReasonHint')}</p></div>
<div><label for="assignee">${t('assignee')}</label><select id="assignee" name="assignee"${invalid('assignee')}><option value="">${t('unassigned')}</option>${choices.map((u) => html`<option value="${u.id}"${u.id === assignee ? html` selected` : ''}>${u.name}</option>`)}</select></div>
<div><label for="follow_up_on">${t('followUpOn')}</label><input type="date" id="follow_up_on" name="follow_up_on" value="${followUp}" aria-describedby="follow-up-hint"${invalid('follow_up_on')}><p class="hint" id="follow-up-hint">${t('followUpHint')}</p></div>
<div class="actions"><button type="submit">${t('saveWork')}</button></div>
</form>
</section>`;
}

export function notesSection(
  context: PageContext,
  data: LeadPageData,
  form: WorkForm | undefined,
  saved: boolean,
): Html {
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
