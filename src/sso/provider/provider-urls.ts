// Where the provider lives and the URLs it names (docs/design.md sections 4 and 12): pure
// functions of PUBLIC_URL, apart from provider.ts so that code which only needs an address
// (the broker app as a client, the CLI) does not load oidc-provider.
import type { Config } from '../../config.ts';

/** Where the provider is mounted; the issuer is the public URL of this path. */
export const SSO_PATH = '/sso';

export function issuerOf(config: Pick<Config, 'publicUrl'>): string {
  return `${config.publicUrl}${SSO_PATH}`;
}

/** The login/consent page of an interaction (a path: the browser stays on our host). */
export function interactionPathOf(uid: string): string {
  return `${SSO_PATH}/interaction/${uid}`;
}

/** The API's resource indicator (RFC 8707): the `aud` of every access token. */
export function apiResourceOf(config: Pick<Config, 'publicUrl'>): string {
  return `${config.publicUrl}/v1/api`;
}
