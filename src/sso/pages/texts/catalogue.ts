// The texts of the sign-in pages, one catalogue per language (en, nl, fr, de). Separate
// from src/i18n, which holds the API's error messages.
import type { SsoScope } from '../../tokens/scopes.ts';

export interface PageCatalogue {
  readonly signInTitle: string;
  /** {client}: the application's name. */
  readonly signInIntro: string;
  readonly loginLabel: string;
  readonly passwordLabel: string;
  readonly signInButton: string;
  readonly cancelButton: string;
  /** Deliberately the same for an unknown login and a wrong password. */
  readonly invalidCredentials: string;
  readonly throttled: string;
  readonly formExpired: string;
  readonly consentTitle: string;
  /** {client}: the application's name. */
  readonly consentIntro: string;
  /** {user}: the signed-in user's username. */
  readonly signedInAs: string;
  readonly allowButton: string;
  readonly denyButton: string;
  readonly scopes: Readonly<Record<SsoScope, string>>;
  readonly errorTitle: string;
  readonly sessionExpired: string;
  readonly errorDetail: string;
  readonly signOutTitle: string;
  readonly signOutQuestion: string;
  readonly signOutButton: string;
  readonly staySignedInButton: string;
  readonly signedOutTitle: string;
  readonly signedOut: string;
}
