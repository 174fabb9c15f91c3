// One authorization path for API-token and bearer callers (docs/design.md section 4):
// 401 when the credentials are missing or not valid, 403 when they are valid but lack
// the scope or belong to another distribution.
import type { FastifyRequest, onRequestHookHandler } from 'fastify';
import { ForbiddenError, UnauthenticatedError } from '../errors.ts';
import { API_SCOPE, type ApiTokenScope, type Caller } from './caller.ts';
import type { TokenCheck } from './token-check-in-write.ts';

/**
 * Turns the credentials of one scheme into a caller, or undefined when they are not valid.
 * With `checkInWrite` (a route whose write reads the token itself, a single push), an API
 * token the process knows live may be let through unread, its check handed to the request
 * (token-check-in-write.ts).
 */
export type CredentialVerifier = (credentials: string, options?: VerifyOptions) => Promise<Caller | undefined>;

export interface VerifyOptions {
  readonly checkInWrite?: (check: TokenCheck) => void;
}

/** The caller an Authorization header stands for, or undefined when it names none. */
export type Authenticator = (header: string | undefined, options?: VerifyOptions) => Promise<Caller | undefined>;

declare module 'fastify' {
  interface FastifyInstance {
    /** Built once per app (app.ts): each app has its own database and SSO issuer. */
    authenticate: Authenticator;
  }
}

/** `<scheme> <credentials>`, with the scheme lower-cased: it is case-insensitive (RFC 9110 section 11.1). */
export function parseAuthorization(header: string | undefined): { scheme: string; credentials: string } | undefined {
  const match = /^\s*(\S+)\s+(\S+)\s*$/.exec(header ?? '');
  return match ? { scheme: match[1]!.toLowerCase(), credentials: match[2]! } : undefined;
}

/** Verifiers by scheme (`apikey`, `bearer`, in any case); any other scheme is not valid: 401. */
export function createAuthenticator(verifiers: Readonly<Record<string, CredentialVerifier>>): Authenticator {
  // A Map, not the object itself: a scheme such as `constructor` must find nothing rather
  // than an Object.prototype member.
  const byScheme = new Map(Object.entries(verifiers).map(([scheme, verify]) => [scheme.toLowerCase(), verify]));
  return async (header, options) => {
    const parsed = parseAuthorization(header);
    if (!parsed) return undefined;
    const verify = byScheme.get(parsed.scheme);
    return verify ? verify(parsed.credentials, options) : undefined;
  };
}

/** API tokens start with this (api-token.service.ts); no SSO access token (a JWT) does. */
const API_TOKEN_START = 'li_';
/** A JWS in compact form, as SSO access tokens are: three base64url parts, the header JSON (`{"`). */
const JWT = /^eyJ[\w-]*\.[\w-]+\.[\w-]+$/;

/**
 * The 401 for an Authorization header that names no caller. A token sent under the other
 * scheme, or under none, is told which scheme it takes (docs/design.md section 16): an API
 * token (`Bearer li_…`, as most HTTP clients default to, or `li_…` alone) that API tokens
 * use `apikey`, an SSO access token (`apikey eyJ…`) that access tokens use `bearer`. The
 * token is not checked, so the answer says nothing about whether it is valid.
 */
export function unauthenticated(header: string | undefined): UnauthenticatedError {
  const parsed = parseAuthorization(header);
  const credentials = parsed?.credentials ?? header?.trim() ?? '';
  if (parsed?.scheme !== 'apikey' && credentials.startsWith(API_TOKEN_START)) {
    return new UnauthenticatedError('Authorization', 'api_token_scheme');
  }
  if (parsed?.scheme !== 'bearer' && JWT.test(credentials)) {
    return new UnauthenticatedError('Authorization', 'access_token_scheme');
  }
  return new UnauthenticatedError('Authorization');
}

/**
 * An onRequest hook for any route whose path has `:distribution_id`, whatever its other
 * params. A callback hook: an async one costs every request one more promise and tick.
 */
export function requireScope(scope: ApiTokenScope): onRequestHookHandler {
  return function authorize(request, _reply, done): void {
    const options = request.routeOptions.config.tokenCheckedInWrite
      ? { checkInWrite: (check: TokenCheck) => (request.tokenCheck = check) }
      : undefined;
    request.server.authenticate(request.headers.authorization, options).then(
      (caller) => done(refusal(request, caller, scope)),
      (error: Error) => done(error),
    );
  };
}

/** Why `caller` may not call this route with `scope`, or undefined when it may (and is then the request's caller). */
function refusal(request: FastifyRequest, caller: Caller | undefined, scope: ApiTokenScope): Error | undefined {
  if (!caller) return unauthenticated(request.headers.authorization);
  request.caller = caller;
  if (!caller.scopes.includes(scope) && !caller.scopes.includes(API_SCOPE)) {
    return new ForbiddenError({ target: 'Authorization', code: 'forbidden_scope', params: { scope } });
  }
  if (caller.distributionId !== (request.params as { distribution_id?: string }).distribution_id) {
    return new ForbiddenError({ target: 'distribution_id', code: 'forbidden_distribution' });
  }
  return undefined;
}
