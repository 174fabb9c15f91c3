// `Authorization: bearer <access token>` (DESIGN.md section 4): a JWT access token from
// the embedded provider, verified in-process (src/sso/access-token.ts). The caller is the
// user, with the scopes granted to the token and the user's distribution; requireScope
// then applies the same rules as for API tokens (`api` grants every operation).
import type { DatabaseHandle } from '../db/database.ts';
import type { AccessTokenVerifier } from '../sso/access-token.ts';
import { registerCredentialVerifier } from './authorize.ts';

export function registerBearerTokens(database: DatabaseHandle, accessTokens: AccessTokenVerifier): void {
  registerCredentialVerifier(database, 'bearer', async (_database, token) => {
    const verified = await accessTokens.verify(token);
    if (!verified) return undefined;
    return {
      kind: 'user',
      id: verified.user.id,
      distributionId: verified.user.distribution_id,
      scopes: verified.scopes,
      language: verified.user.language,
    };
  });
}
