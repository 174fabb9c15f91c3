// The confirmation step before merging two parties (docs/api.md, "Merging two parties"): which
// lead goes into which, what moves, and a form (CSRF) whose button merges; a link back cancels.
import { ownHref } from '../../html/href.ts';
import { html } from '../../html/html.ts';
import type { Lead } from '../lead-data.ts';
import { displayName } from './field-values.ts';
import type { PageContext } from './layout.ts';
import { renderLeadPage } from './lead-page.ts';

export function renderMergeConfirmation(context: PageContext, survivor: Lead, merged: Lead): string {
  const { t } = context;
  const name = (lead: Lead) => displayName(lead.prospect.type, lead.prospect as Record<string, unknown>);
  const title = t('mergeTitle', { from: name(merged), into: name(survivor) });
  const body = html`<section class="card" aria-labelledby="merge-title">
<h2 id="merge-title">${title}</h2>
<p>${t('mergeExplained')}</p>
<p><a href="${ownHref(`/app/parties/${merged.party_id}`)}">${name(merged)}</a> → <a href="${ownHref(`/app/parties/${survivor.party_id}`)}">${name(survivor)}</a></p>
<form method="post" action="${ownHref(`/app/parties/${survivor.party_id}/merge`)}">
<input type="hidden" name="csrf" value="${context.user?.csrf ?? ''}">
<input type="hidden" name="from" value="${merged.party_id}">
<div class="actions"><button type="submit">${t('mergeConfirm')}</button> <a href="${ownHref(`/app/parties/${survivor.party_id}`)}">${t('cancel')}</a></div>
</form>
</section>`;
  return renderLeadPage(context, survivor, 'party', body, title);
}
