// The proflow (docs/design.md section 7, `/app/proflow/parties/{id}`): the lead's timeline,
// every accepted push (time, caller, origin, created or merged, the raw body one click
// away) and every webhook delivery with its attempts, where a failed one can be sent
// again (a POST form with the session's CSRF token).
import { html, type Html } from '../html.ts';
import type { PageContext } from '../layout.ts';
import type { CallerName, Delivery, Lead, Push } from '../lead-data.ts';
import { renderLeadPage } from './party.page.ts';

type CallerNames = ReadonlyMap<string, CallerName>;

function callerText(context: PageContext, callers: CallerNames, caller: string): string {
  const known = callers.get(caller);
  if (!known) return caller;
  if (known.kind === 'user') return context.t('callerUser', { name: known.name ?? '' });
  return known.name
    ? context.t('callerToken', { name: known.name })
    : context.t('callerTokenUnnamed', { id: caller.slice('token:'.length, 'token:'.length + 8) });
}

function pushRow(context: PageContext, lead: Lead, push: Push, callers: CallerNames): Html {
  const { t, formats } = context;
  return html`<tr>
<td><time datetime="${push.received_at}">${formats.dateTime(push.received_at)}</time></td>
<td>${callerText(context, callers, push.caller)}</td>
<td>${push.origin ?? t('notGiven')}</td>
<td>${push.status === 201 ? t('created') : t('merged')}</td>
<td><a href="/app/proflow/parties/${lead.party_id}/pushes/${push.id}">${t('showRawBody')}<span class="muted"> (${formats.dateTime(push.received_at)})</span></a></td>
</tr>`;
}

const STATUS_FLAG = { delivered: 'good', failed: 'bad', pending: 'wait' } as const;

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
  const replay =
    delivery.status === 'failed'
      ? html`<form method="post" action="/app/proflow/parties/${lead.party_id}/deliveries/${delivery.id}/replay">
<input type="hidden" name="csrf" value="${csrf}"><button type="submit">${t('replay')}<span class="sr-only"> (${delivery.event_type}, ${delivery.url})</span></button></form>`
      : '';
  return html`<tr>
<td><time datetime="${delivery.created_at}">${formats.dateTime(delivery.created_at)}</time></td>
<td>${delivery.event_type}</td>
<td>${delivery.url}</td>
<td><span class="flag ${STATUS_FLAG[delivery.status]}">${t(`status_${delivery.status}`)}</span>${delivery.next_attempt_at ? html`<br><span class="muted">${t('nextAttempt', { at: formats.dateTime(delivery.next_attempt_at) })}</span>` : ''}</td>
<td>${attempts.length === 0 ? t('noAttempts') : html`<ol class="attempts">${attempts}</ol>`}</td>
<td>${replay}</td>
</tr>`;
}

export function renderProflow(
  context: PageContext,
  data: { lead: Lead; pushes: Push[]; deliveries: Delivery[]; callers: CallerNames },
  { replayed }: { replayed: boolean },
): string {
  const { t } = context;
  const { lead, pushes, deliveries } = data;
  const csrf = context.user?.csrf ?? '';
  const body = html`
${replayed ? html`<p class="notice" role="status">${t('replayed')}</p>` : ''}
<h2 id="pushes">${t('pushes')}</h2>
${
  pushes.length === 0
    ? html`<p>${t('noPushes')}</p>`
    : html`<table aria-labelledby="pushes">
<thead><tr><th scope="col">${t('receivedAt')}</th><th scope="col">${t('caller')}</th><th scope="col">${t('origin')}</th><th scope="col">${t('result')}</th><th scope="col">${t('rawBody')}</th></tr></thead>
<tbody>${pushes.map((push) => pushRow(context, lead, push, data.callers))}</tbody></table>`
}
<h2 id="deliveries">${t('deliveries')}</h2>
${
  deliveries.length === 0
    ? html`<p>${t('noDeliveries')}</p>`
    : html`<table aria-labelledby="deliveries">
<thead><tr><th scope="col">${t('receivedAt')}</th><th scope="col">${t('event')}</th><th scope="col">${t('address')}</th><th scope="col">${t('status')}</th><th scope="col">${t('attempts')}</th><th scope="col"><span class="muted">${t('replay')}</span></th></tr></thead>
<tbody>${deliveries.map((delivery) => deliveryRow(context, lead, delivery, csrf))}</tbody></table>`
}`;
  return renderLeadPage(context, lead, 'proflow', body);
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
  return renderLeadPage(context, lead, 'proflow', body, t('rawBodyTitle', { at: formats.dateTime(push.received_at) }));
}
