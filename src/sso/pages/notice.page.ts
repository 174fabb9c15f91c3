// Pages without a form of ours: errors, and the provider's sign-out pages.
import type { Language } from '../../i18n/messages.ts';
import { catalogueFor } from './language.ts';
import { escapeHtml, renderPage, type RenderedPage } from './layout.ts';

/** An error page; `detail` is the OAuth error description, shown to help a developer. */
export function renderErrorPage(
  language: Language,
  message: 'sessionExpired' | 'formExpired' | undefined,
  detail?: string,
): RenderedPage {
  const text = catalogueFor(language);
  const body = `
<p class="error" role="alert">${escapeHtml(text[message ?? 'sessionExpired'])}</p>
${detail ? `<p class="muted">${escapeHtml(text.errorDetail)}:</p><pre>${escapeHtml(detail)}</pre>` : ''}`;
  return renderPage({ language, title: text.errorTitle, body });
}

/** `form` is oidc-provider's own hidden form (with its CSRF field), submitted by our buttons. */
export function renderSignOutPage(language: Language, form: string): RenderedPage {
  const text = catalogueFor(language);
  const body = `
<p>${escapeHtml(text.signOutQuestion)}</p>
${form}
<div class="actions">
<button type="submit" form="op.logoutForm" name="logout" value="yes" autofocus>${escapeHtml(text.signOutButton)}</button>
<button type="submit" form="op.logoutForm" class="secondary">${escapeHtml(text.staySignedInButton)}</button>
</div>`;
  return renderPage({ language, title: text.signOutTitle, body });
}

export function renderSignedOutPage(language: Language): RenderedPage {
  const text = catalogueFor(language);
  return renderPage({ language, title: text.signedOutTitle, body: `<p>${escapeHtml(text.signedOut)}</p>` });
}
