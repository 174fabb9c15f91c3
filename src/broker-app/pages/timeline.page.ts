// The lead's timeline (docs/design.md section 7, `/app/proflow/parties/{id}`, the path of
// the lead's `href_to_proflow`): every accepted push (time, caller, origin, created or
// merged, the raw body one click away) and every webhook delivery with its attempts,
// where a failed one can be sent again (a POST form with the session's CSRF token).
import { html, type Html } from '../../html/html.ts';
import type { PageContext } from './layout.ts';
import { fieldLabel, formatValue } from './field-values.ts';
import type { CallerName, Change, Delivery, Lead, Note, Push } from '../lead-data.ts';
import { hasText, type TextKey } from '../texts/index.ts';
import { renderLeadPage } from './lead-page.ts';
import { canSucceedAgain } from '../../webhooks/admin/replayable.ts';

type CallerNames = ReadonlyMap<string, CallerName>;

function callerText(context: PageContext, callers: CallerNames, caller: string): string {
  const known = callers.get(caller);
  const rule = /^routing:(\d+)$/.exec(caller);
  if (rule) return context.t('callerRouting', { n: rule[1]! });
  if (!known) return caller;
  if (known.kind === 'user') return context.t('callerUser', { name: known.name ?? '' });
  return known.name
    ? context.t('callerToken', { name: known.name })
    : context.t('callerTokenUnnamed', { id: caller.slice('token:'.length, 'token:'.length + 8) });
}

/** One entry of the timeline: a push, a PATCH of the lead or the party, or a note. */
type Entry = { readonly at: string; readonly html: Html };

function pushEntry(context: PageContext, lead: Lead, push: Push, callers: CallerNames): Entry {
  const { t } = context;
  return {
    at: push.received_at,
    html: html`<p class="what"><strong>${push.status === 201 ? t('pushCreated') : t('pushMerged')}</strong> · ${callerText(context, callers, push.caller)} · ${t('origin')}: ${push.origin ?? t('notGiven')}</p>
<p><a href="/app/proflow/parties/${lead.party_id}/pushes/${push.id}">${t('showRawBody')}</a></p>`,
  };
}

/** A changed value as the page shows it: a status, user or risk object by its name. */
function shownValue(context: PageContext, field: string, value: unknown, users: ReadonlyMap<string, string>): string {
  if (value === undefined) return context.t('notGiven');
  if (field === 'status' && typeof value === 'string' && hasText(`leadStatus_${value}`))
    return context.t(`leadStatus_${value}` as TextKey);
  if (field === 'assignee' && typeof value === 'string') return users.get(value) ?? value;
  if (field === 'follow_up_on' && typeof value === 'string') return context.formats.date(value);
  if ((field === 'car' || field === 'residence') && typeof value === 'object' && value !== null) {
    const object = value as { revision_nr?: number; vin?: string };
    return context.t('objectRevision', { n: object.revision_nr ?? 1, vin: object.vin ?? '' }).trim();
  }
  return formatValue(context, field, value);
}

function changeLabel(context: PageContext, field: string): string {
  if (field === 'status') return context.t('columnStatus');
  if (field === 'lost_reason') return context.t('lostReason');
  if (field === 'assignee') return context.t('assignee');
  if (field === 'follow_up_on') return context.t('followUpOn');
  if (field === 'car') return context.t('CAR');
  if (field === 'residence') return context.t('RESIDENCE');
  return fieldLabel(context, field);
}

function changeEntry(
  context: PageContext,
  change: Change,
  callers: CallerNames,
  users: ReadonlyMap<string, string>,
): Entry {
  const { t } = context;
  const title =
    change.subject === 'party'
      ? t('partyPatched')
      : change.changes.some((c) => c.field === 'status')
        ? t('statusChanged')
        : t('leadPatched');
  const rows = change.changes.map(
    (c) =>
      html`<li><span class="field">${changeLabel(context, c.field)}</span>: ${c.before === undefined ? t('notGiven') : html`<del>${shownValue(context, c.field, c.before, users)}</del>`} → ${c.after === undefined ? t('removed') : html`<ins>${shownValue(context, c.field, c.after, users)}</ins>`}</li>`,
  );
  return {
    at: change.changed_at,
    html: html`<p class="what"><strong>${title}</strong> · ${callerText(context, callers, change.caller)}</p><ul class="changes">${rows}</ul>`,
  };
}

function noteEntry(context: PageContext, note: Note, users: ReadonlyMap<string, string>): Entry {
  return {
    at: note.created_at,
    html: html`<p class="what"><strong>${context.t('noteOf', { name: users.get(note.author_id) ?? context.t('notGiven') })}</strong></p><p class="note">${note.body}</p>`,
  };
}

const STATUS_FLAG = { delivered: 'good', failed: 'bad', pending: 'wait' } as const;

/**
 * Whether sending a failed delivery again can succeed (docs/broker-app.md, the timeline): not when
 * its address was refused (the guard refuses it again, section 5) or stopped (a 410 Gone
 * stops the URL, and a stopped URL is not sent to); only when the receiver failed to take it.
 */
function deliveryRow(context: PageContext, lead: Lead, delivery: Delivery, csrf: string): Html {
  const { t, formats } = context;
  const attempts = delivery.attempts.map(
    (attempt) =>
      html`<li>${t('attemptLine', {
        n: attempt.attempt_nr,
        at: formats.dateTime(attempt.started_at),
        outcome: t(`outcome_${attempt.outcome}`),
      })}${attempt.status_code === null ? '' : ` · HTTP ${attempt.status_code}`}${attempt.error ? ` · ${attempt.error}` : ''} · ${attempt.duration_ms} ms</li>`,
  );
  const replay = canSucceedAgain(delivery.status, delivery.attempts.at(-1)?.outcome)
    ? html`<form method="post" action="/app/proflow/parties/${lead.party_id}/deliveries/${delivery.id}/replay">
<input type="hidden" name="csrf" value="${csrf}"><button type="submit">${t('replay')}<span class="sr-only"> (${delivery.event_type}, ${delivery.url})</span></button></form>`
    : '';
  return html`<tr>
<td class="whole" data-label="${t('receivedAt')}"><time datetime="${delivery.created_at}">${formats.dateTime(delivery.created_at)}</time></td>
<td class="whole" data-label="${t('event')}">${delivery.event_type}</td>
<td data-label="${t('address')}">${delivery.url}</td>
<td class="whole" data-label="${t('status')}"><span class="flag ${STATUS_FLAG[delivery.status]}">${t(`status_${delivery.status}`)}</span>${delivery.next_attempt_at ? html`<br><span class="muted">${t('nextAttempt', { at: formats.dateTime(delivery.next_attempt_at) })}</span>` : ''}</td>
<td data-label="${t('attempts')}">${attempts.length === 0 ? t('noAttempts') : html`<ol class="attempts">${attempts}</ol>`}</td>
<td class="whole">${replay}</td>
</tr>`;
}

export function renderTimeline(
  context: PageContext,
  data: {
    lead: Lead;
    pushes: Push[];
    changes: Change[];
    notes: Note[];
    deliveries: Delivery[];
    callers: CallerNames;
  },
  { replayed }: { replayed: boolean },
): string {
  const { t, formats } = context;
  const { lead, deliveries, callers } = data;
  const users = new Map(
    [...callers].filter(([key]) => key.startsWith('user:')).map(([key, caller]) => [key.slice(5), caller.name ?? '']),
  );
  const csrf = context.user?.csrf ?? '';
  // Oldest first; at the same instant a push before a change before a note, as they happen.
  const entries = [
    ...data.pushes.map((push) => pushEntry(context, lead, push, callers)),
    ...data.changes.map((change) => changeEntry(context, change, callers, users)),
    ...data.notes.map((note) => noteEntry(context, note, users)),
  ].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  const body = html`
${replayed ? html`<p class="notice" role="status">${t('replayed')}</p>` : ''}
<h2 id="events">${t('timeline')}</h2>
${
  entries.length === 0
    ? html`<p>${t('noPushes')}</p>`
    : html`<ol class="timeline" aria-labelledby="events">${entries.map((entry) => html`<li><time datetime="${entry.at}">${formats.dateTime(entry.at)}</time>${entry.html}</li>`)}</ol>`
}
<h2 id="deliveries">${t('deliveries')}</h2>
${
  deliveries.length === 0
    ? html`<p>${t('noDeliveries')}</p>`
    : html`<table class="stack wide deliveries" aria-labelledby="deliveries">
<thead><tr><th scope="col">${t('receivedAt')}</th><th scope="col">${t('event')}</th><th scope="col" class="address">${t('address')}</th><th scope="col">${t('status')}</th><th scope="col">${t('attempts')}</th><th scope="col"><span class="muted">${t('replay')}</span></th></tr></thead>
<tbody>${deliveries.map((delivery) => deliveryRow(context, lead, delivery, csrf))}</tbody></table>`
}`;
  return renderLeadPage(context, lead, 'timeline', body);
}

/** One push's body exactly as it arrived (pretty-printing would not be "as received"). */
export function renderRawPush(
  context: PageContext,
  lead: Lead,
  push: { received_at: string; payload: string },
): string {
  const { t, formats } = context;
  const body = html`<p><a href="/app/proflow/parties/${lead.party_id}">${t('backToTimeline')}</a></p>
<pre tabindex="0" aria-label="${t('rawBody')}">${push.payload}</pre>`;
  return renderLeadPage(context, lead, 'timeline', body, t('rawBodyTitle', { at: formats.dateTime(push.received_at) }));
}
