// `Authorization: bearer <access token>` (docs/design.md section 4): a JWT access token from
// the embedded provider, verified in-process (src/sso/tokens/access-token.ts). The caller is the
// user, with the scopes granted to the token and the user's distribution; requireScope
// then applies the same rules as for API tokens (`api` grants every operation).
import type { SsoRuntime } from '../sso/index.ts';
import type { CredentialVerifier } from './authorize.ts';

export function bearerTokenVerifier(sso: SsoRuntime): CredentialVerifier {
  return async (token) => {
    const verified = await (await sso()).accessTokens.verify(token);
    if (!verified) return undefined;
    return {
      kind: 'user',
      id: verified.user.id,
      distributionId: verified.user.distribution_id,
      scopes: verified.scopes,
      language: verified.user.language,
      clientId: verified.clientId,
    };
  };
}
