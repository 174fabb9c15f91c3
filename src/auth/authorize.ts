// One authorization path for API-token and bearer callers (DESIGN.md section 4):
// 401 when the credentials are missing or not valid, 403 when they are valid but lack
// the scope or belong to another distribution.
import type { FastifyRequest, onRequestHookHandler } from 'fastify';
import type { DatabaseHandle } from '../db/database.ts';
import { ForbiddenError, UnauthenticatedError } from '../errors.ts';
import { authenticateApiToken } from './api-token.service.ts';
import type { Caller } from './caller.ts';

/** Scopes that grant every API operation (SSO `api`). */
const ALL_OPERATIONS_SCOPE = 'api';

/** Turns the credentials of one scheme into a caller, or undefined when they are not valid. */
export type CredentialVerifier = (database: DatabaseHandle, credentials: string) => Promise<Caller | undefined>;

// Keyed by the lower-cased scheme. A Map, not an object literal: a scheme such as
// `constructor` must find nothing rather than an Object.prototype member.
const VERIFIERS = new Map<string, CredentialVerifier>([
  ['apikey', (database, token) => authenticateApiToken(database.db, token)],
]);

/**
 * Verifiers that need more than the database, registered when an app is built: `bearer`
 * (src/auth/bearer-token.ts) needs the provider's issuer and keys. Kept per database
 * handle because tests build several apps, each with its own database and issuer, in
 * one process. A scheme registered nowhere is not valid: 401 like any unknown scheme.
 */
const APP_VERIFIERS = new WeakMap<DatabaseHandle, Map<string, CredentialVerifier>>();

export function registerCredentialVerifier(database: DatabaseHandle, scheme: string, verify: CredentialVerifier): void {
  const verifiers = APP_VERIFIERS.get(database) ?? new Map<string, CredentialVerifier>();
  verifiers.set(scheme.toLowerCase(), verify);
  APP_VERIFIERS.set(database, verifiers);
}

/** An onRequest hook for any route whose path has `:distribution_id`, whatever its other params. */
export function requireScope(database: DatabaseHandle, scope: string): onRequestHookHandler {
  return async function authorize(request: FastifyRequest): Promise<void> {
    const caller = await authenticate(database, request.headers.authorization);
    if (!caller) throw new UnauthenticatedError();
    request.caller = caller;
    if (!caller.scopes.includes(scope) && !caller.scopes.includes(ALL_OPERATIONS_SCOPE)) {
      throw new ForbiddenError({ target: 'Authorization', code: 'forbidden_scope', params: { scope } });
    }
    if (caller.distributionId !== (request.params as { distribution_id?: string }).distribution_id) {
      throw new ForbiddenError({ target: 'distribution_id', code: 'forbidden_distribution' });
    }
  };
}

async function authenticate(database: DatabaseHandle, header: string | undefined): Promise<Caller | undefined> {
  // `<scheme> <credentials>`; the scheme is case-insensitive (RFC 9110 section 11.1):
  // apikey, ApiKey, APIKEY.
  const match = /^\s*(\S+)\s+(\S+)\s*$/.exec(header ?? '');
  if (!match) return undefined;
  const scheme = match[1]!.toLowerCase();
  const verify = VERIFIERS.get(scheme) ?? APP_VERIFIERS.get(database)?.get(scheme);
  return verify ? verify(database, match[2]!) : undefined;
}
