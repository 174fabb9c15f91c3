// The consent challenge: the requested scopes in plain words (docs/design.md section 12).
import { ownHref } from '../../html/href.ts';
import { html, joinHtml } from '../../html/html.ts';
import { fillPlaceholders, type Language } from '../../i18n/messages.ts';
import { SSO_SCOPES, type SsoScope } from '../tokens/scopes.ts';
import { catalogueFor } from './language.ts';
import { renderPage, type RenderedPage } from './layout.ts';

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
  const items = joinHtml(
    sentences.map((sentence) => html`<li>${sentence}</li>`),
    '\n',
  );
  const body = html`
<p>${fillPlaceholders(text.consentIntro, { client: page.clientName })}</p>
<ul>
${items}
</ul>
<form method="post" action="${ownHref(page.action)}">
<input type="hidden" name="csrf" value="${page.csrfToken}">
<div class="actions">
<button type="submit" name="decision" value="allow" autofocus>${text.allowButton}</button>
<button type="submit" name="decision" value="deny" class="secondary">${text.denyButton}</button>
</div>
</form>
<p class="muted">${fillPlaceholders(text.signedInAs, { user: page.username })}</p>`;
  return renderPage({ language: page.language, title: text.consentTitle, body, formTargets: page.formTargets });
}
