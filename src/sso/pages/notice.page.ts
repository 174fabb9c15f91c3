// Pages without a form of ours: errors, and the provider's sign-out pages.
import type { Href } from '../../html/href.ts';
import { html } from '../../html/html.ts';
import type { Language } from '../../i18n/messages.ts';
import { catalogueFor } from './language.ts';
import { renderPage, type RenderedPage } from './layout.ts';

/** An error page; `detail` is the OAuth error description, shown to help a developer. */
export function renderErrorPage(
  language: Language,
  message: 'sessionExpired' | 'formExpired' | undefined,
  detail?: string,
): RenderedPage {
  const text = catalogueFor(language);
  const body = html`
<p class="error" role="alert">${text[message ?? 'sessionExpired']}</p>
${detail ? html`<p class="muted">${text.errorDetail}:</p><pre>${detail}</pre>` : ''}`;
  return renderPage({ language, title: text.errorTitle, body });
}

/** oidc-provider's sign-out form (provider/logout-form.ts): where it posts, and its xsrf token. */
export interface SignOutForm {
  readonly action: Href;
  readonly xsrf: string;
}

/** The question, with the provider's hidden form, which our buttons submit. */
export function renderSignOutPage(language: Language, form: SignOutForm): RenderedPage {
  const text = catalogueFor(language);
  const body = html`
<p>${text.signOutQuestion}</p>
<form id="op.logoutForm" method="post" action="${form.action}"><input type="hidden" name="xsrf" value="${form.xsrf}"/></form>
<div class="actions">
<button type="submit" form="op.logoutForm" name="logout" value="yes" autofocus>${text.signOutButton}</button>
<button type="submit" form="op.logoutForm" class="secondary">${text.staySignedInButton}</button>
</div>`;
  return renderPage({ language, title: text.signOutTitle, body });
}

export function renderSignedOutPage(language: Language): RenderedPage {
  const text = catalogueFor(language);
  return renderPage({ language, title: text.signedOutTitle, body: html`<p>${text.signedOut}</p>` });
}
