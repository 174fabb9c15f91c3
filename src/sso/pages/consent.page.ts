// The consent challenge: the requested scopes in plain words (docs/design.md section 12).
import { fillPlaceholders, type Language } from '../../i18n/messages.ts';
import { SSO_SCOPES, type SsoScope } from '../tokens/scopes.ts';
import { catalogueFor } from './language.ts';
import { escapeHtml, renderPage, type RenderedPage } from './layout.ts';

export interface ConsentPage {
  readonly language: Language;
  readonly clientName: string;
  readonly username: string;
  readonly scopes: readonly string[];
  readonly action: string;
  readonly csrfToken: string;
  readonly formTargets: readonly string[];
}

export function renderConsentPage(page: ConsentPage): RenderedPage {
  const text = catalogueFor(page.language);
  const known = SSO_SCOPES.filter((scope) => page.scopes.includes(scope));
  // offline and offline_access say the same thing; say it once.
  const sentences = [...new Set(known.map((scope: SsoScope) => text.scopes[scope]))];
  const body = `
<p>${escapeHtml(fillPlaceholders(text.consentIntro, { client: page.clientName }))}</p>
<ul>
${sentences.map((sentence) => `<li>${escapeHtml(sentence)}</li>`).join('\n')}
</ul>
<form method="post" action="${escapeHtml(page.action)}">
<input type="hidden" name="csrf" value="${escapeHtml(page.csrfToken)}">
<div class="actions">
<button type="submit" name="decision" value="allow" autofocus>${escapeHtml(text.allowButton)}</button>
<button type="submit" name="decision" value="deny" class="secondary">${escapeHtml(text.denyButton)}</button>
</div>
</form>
<p class="muted">${escapeHtml(fillPlaceholders(text.signedInAs, { user: page.username }))}</p>`;
  return renderPage({ language: page.language, title: text.consentTitle, body, formTargets: page.formTargets });
}
