// The login challenge: email or username, and password (docs/design.md section 12).
import { fillPlaceholders, type Language } from '../../i18n/messages.ts';
import { catalogueFor } from './language.ts';
import { escapeHtml, renderPage, type RenderedPage } from './layout.ts';

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
  const csrf = `<input type="hidden" name="csrf" value="${escapeHtml(page.csrfToken)}">`;
  const body = `
<p>${escapeHtml(fillPlaceholders(text.signInIntro, { client: page.clientName }))}</p>
${page.error ? `<p class="error" role="alert">${escapeHtml(text[page.error])}</p>` : ''}
<form method="post" action="${escapeHtml(page.action)}" autocomplete="on">
${csrf}
<label for="login">${escapeHtml(text.loginLabel)}</label>
<input type="text" id="login" name="login" value="${escapeHtml(page.login ?? '')}" autocomplete="username" autocapitalize="none" spellcheck="false" required autofocus>
<label for="password">${escapeHtml(text.passwordLabel)}</label>
<input type="password" id="password" name="password" autocomplete="current-password" required>
<div class="actions">
<button type="submit">${escapeHtml(text.signInButton)}</button>
<button type="submit" class="secondary" form="cancel">${escapeHtml(text.cancelButton)}</button>
</div>
</form>
<form method="post" action="${escapeHtml(page.cancelAction)}" id="cancel">${csrf}</form>`;
  return renderPage({ language: page.language, title: text.signInTitle, body, formTargets: page.formTargets });
}
