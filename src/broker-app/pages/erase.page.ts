// The confirmation step before an erasure (docs/design.md section 15): what will be deleted,
// for good, and a form (CSRF) whose button erases; a link back cancels.
import { html } from '../../html/html.ts';
import type { PageContext } from './layout.ts';
import type { Lead } from '../lead-data.ts';
import { displayName } from './field-values.ts';
import { renderLeadPage } from './lead-page.ts';

export function renderEraseConfirmation(context: PageContext, lead: Lead): string {
  const { t } = context;
  const name = displayName(lead.prospect.type, lead.prospect as Record<string, unknown>);
  const title = t('eraseTitle', { name });
  const body = html`<section class="card" aria-labelledby="erase-title">
<h2 id="erase-title">${title}</h2>
<p>${t('eraseWarning')}</p>
<form method="post" action="/app/parties/${lead.party_id}/erase">
<input type="hidden" name="csrf" value="${context.user?.csrf ?? ''}">
<div class="actions"><button type="submit" class="danger">${t('eraseConfirm')}</button> <a href="/app/parties/${lead.party_id}">${t('cancel')}</a></div>
</form>
</section>`;
  return renderLeadPage(context, lead, 'party', body, title);
}
