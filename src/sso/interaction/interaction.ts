// oidc-provider's interaction (a login or consent step in progress), as the sign-in
// pages and the consent step read it.
import type Provider from 'oidc-provider';

export type Interaction = Awaited<ReturnType<Provider['interactionDetails']>>;

/** `prompt.details` of the consent prompt: what the authorization request still lacks. */
export interface ConsentDetails {
  missingOIDCScope?: string[];
  missingOIDCClaims?: string[];
  missingResourceScopes?: Record<string, string[]>;
}
