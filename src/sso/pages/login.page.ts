// The login challenge: email or username, and password (docs/design.md section 12).
import { ownHref } from '../../html/href.ts';
import { html } from '../../html/html.ts';
import { fillPlaceholders, type Language } from '../../i18n/messages.ts';
import { catalogueFor } from './language.ts';
import { renderPage, type RenderedPage } from './layout.ts';

export interface LoginPage {
  readonly language: Language;
  readonly clientName: string;
  readonly action: string;
  readonly cancelAction: string;
  readonly csrfToken: string;
  /** The login as typed before, shown again after a failed attempt (never the password). */
  readonly login?: string;
  readonly error?: 'invalidCredentials' | 'throttled' | 'formExpired';
  readonly formTargets: readonly string[];
}

export function renderLoginPage(page: LoginPage): RenderedPage {
  const text = catalogueFor(page.language);
  const csrf = html`<input type="hidden" name="csrf" value="${page.csrfToken}">`;
  const body = html`
<p>${fillPlaceholders(text.signInIntro, { client: page.clientName })}</p>
${page.error ? html`<p class="error" role="alert">${text[page.error]}</p>` : ''}
<form method="post" action="${ownHref(page.action)}" autocomplete="on">
${csrf}
<label for="login">${text.loginLabel}</label>
<input type="text" id="login" name="login" value="${page.login ?? ''}" autocomplete="username" autocapitalize="none" spellcheck="false" required autofocus>
<label for="password">${text.passwordLabel}</label>
<input type="password" id="password" name="password" autocomplete="current-password" required>
<div class="actions">
<button type="submit">${text.signInButton}</button>
<button type="submit" class="secondary" form="cancel">${text.cancelButton}</button>
</div>
</form>
<form method="post" action="${ownHref(page.cancelAction)}" id="cancel">${csrf}</form>`;
  return renderPage({ language: page.language, title: text.signInTitle, body, formTargets: page.formTargets });
}
