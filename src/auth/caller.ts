// Who is calling: resolved once per request by the authorization pre-handler and used by
// services for scope-independent facts (the push log records the caller).
export const API_TOKEN_SCOPES = [
  'leads:write',
  'leads:read',
  'parties:update',
  'parties:read',
  'parties:erase',
  'vehicle:read',
  'address:read',
  'enterprise:read',
] as const;

/** One operation's scope: a typo such as `requireScope('leads:wirte')` does not compile. */
export type ApiTokenScope = (typeof API_TOKEN_SCOPES)[number];

/** Grants every API operation; SSO clients ask for it (src/sso/tokens/scopes.ts), API tokens cannot carry it. */
export const API_SCOPE = 'api';

/** A stored or granted scope list: space-separated (RFC 6749 section 3.3). */
export function parseScopes(list: string): string[] {
  return list.split(' ').filter((scope) => scope !== '');
}

export type Caller =
  | { readonly kind: 'token'; readonly id: string; readonly distributionId: string; readonly scopes: readonly string[] }
  | {
      readonly kind: 'user';
      readonly id: string;
      readonly distributionId: string;
      readonly scopes: readonly string[];
      /** The SSO user's language, which localises error messages (docs/design.md section 3). */
      readonly language: string | undefined;
      /** The partner's client the user signed in through: with the user, the rate limit's key. */
      readonly clientId: string;
    };

/** The push log's `caller` column. */
export function describeCaller(caller: Caller): string {
  return `${caller.kind}:${caller.id}`;
}

declare module 'fastify' {
  interface FastifyRequest {
    caller?: Caller;
  }
}
