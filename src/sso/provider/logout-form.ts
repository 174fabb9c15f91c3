// oidc-provider hands the sign-out question its form as markup (rpInitiatedLogout's
// logoutSource): our end-session confirmation URL and the session's xsrf token. Taken
// apart here so that the page writes the form through the html template like every other
// value (docs/design.md section 10) rather than pass the library's markup on unread. A
// library that changed the form's shape fails here, loudly, not on a user's screen later.
import { webHref } from '../../html/href.ts';
import type { SignOutForm } from '../pages/notice.page.ts';

const LOGOUT_FORM =
  /^<form id="op\.logoutForm" method="post" action="([^"<>]+)"><input type="hidden" name="xsrf" value="([^"<>]+)"\/><\/form>$/;

export function logoutFormOf(markup: string): SignOutForm {
  const match = LOGOUT_FORM.exec(markup);
  const action = match ? webHref(match[1]) : undefined;
  if (!match || !action) throw new Error('oidc-provider sent a sign-out form of an unknown shape');
  return { action, xsrf: match[2]! };
}
