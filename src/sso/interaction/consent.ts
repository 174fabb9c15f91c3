// What the user allows on the consent page becomes (or extends) the grant that the
// provider issues tokens on: the OpenID scopes and claims it asked for, and the API
// scopes for the API resource.
import type Provider from 'oidc-provider';
import type { ConsentDetails, Interaction } from './interaction.ts';

/** Saves the grant with everything the request is missing; returns its id. */
export async function grantConsent(provider: Provider, interaction: Interaction): Promise<string> {
  const accountId = interaction.session?.accountId;
  const clientId = String(interaction.params.client_id);
  const existing = interaction.grantId ? await provider.Grant.find(interaction.grantId) : undefined;
  const grant = existing ?? new provider.Grant({ accountId, clientId });
  const details = interaction.prompt.details as ConsentDetails;
  if (details.missingOIDCScope?.length) grant.addOIDCScope(details.missingOIDCScope.join(' '));
  if (details.missingOIDCClaims?.length) grant.addOIDCClaims(details.missingOIDCClaims);
  for (const [resource, scopes] of Object.entries(details.missingResourceScopes ?? {})) {
    grant.addResourceScope(resource, scopes.join(' '));
  }
  return grant.save();
}
