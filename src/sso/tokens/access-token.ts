// Verifies the provider's JWT access tokens (RFC 9068) in-process, for the API's bearer
// scheme and for userinfo: signature against our own key set (no HTTP round trip to
// ourselves), `typ: at+jwt`, issuer, audience (the API resource) and expiry, with jose.
// Then the user must still be active and the client still registered: one indexed read
// per request, so disabling a user or deleting a client cuts its tokens at once.
import { createLocalJWKSet, errors as joseErrors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import type { Kysely } from 'kysely';
import { parseScopes } from '../../auth/caller.ts';
import type { Database } from '../../db/database.ts';
import { SIGNING_ALG, loadSigningKeys, publicJwk, type PrivateJwk } from '../keys/signing-keys.ts';
import type { UserTable } from '../sso.table.ts';
import { findActiveUserWithClient } from '../users/user.repository.ts';

export interface VerifiedAccessToken {
  readonly user: UserTable;
  readonly scopes: readonly string[];
  /** The client the token was issued to. */
  readonly clientId: string;
}

export interface AccessTokenVerifier {
  /** The token's user and scopes; undefined when the token is not (or no longer) valid. */
  verify(token: string): Promise<VerifiedAccessToken | undefined>;
}

/**
 * The public keys, reloaded from the database when a token names a key we do not know
 * (another process ran `sso rotate-keys` and restarted). Not throttled: a reload is one
 * read of a tiny table, the same cost an unknown API token already has; concurrent
 * misses share one reload.
 */
class VerificationKeys {
  readonly #db: Kysely<Database>;
  #keySet: JWTVerifyGetKey;
  #reload: Promise<JWTVerifyGetKey> | undefined;

  constructor(db: Kysely<Database>, keys: readonly PrivateJwk[]) {
    this.#db = db;
    this.#keySet = localKeySet(keys);
  }

  readonly resolve: JWTVerifyGetKey = async (header, token) => {
    try {
      return await this.#keySet(header, token);
    } catch (error) {
      if (!(error instanceof joseErrors.JWKSNoMatchingKey)) throw error;
      this.#reload ??= loadSigningKeys(this.#db)
        .then(localKeySet)
        .finally(() => (this.#reload = undefined));
      this.#keySet = await this.#reload;
      return this.#keySet(header, token);
    }
  };
}

function localKeySet(keys: readonly PrivateJwk[]): JWTVerifyGetKey {
  return createLocalJWKSet({ keys: keys.map(publicJwk) });
}

export function createAccessTokenVerifier(
  db: Kysely<Database>,
  { issuer, audience, signingKeys }: { issuer: string; audience: string; signingKeys: readonly PrivateJwk[] },
): AccessTokenVerifier {
  const keys = new VerificationKeys(db, signingKeys);
  return {
    async verify(token) {
      let claims: JWTPayload;
      try {
        ({ payload: claims } = await jwtVerify(token, keys.resolve, {
          issuer,
          audience,
          typ: 'at+jwt',
          algorithms: [SIGNING_ALG],
          requiredClaims: ['sub', 'client_id', 'exp', 'iat', 'jti'],
        }));
      } catch {
        return undefined;
      }
      const clientId = claims.client_id;
      if (typeof clientId !== 'string' || typeof claims.sub !== 'string') return undefined;
      const row = await findActiveUserWithClient(db, claims.sub, clientId);
      // SQLite answers exists() with 0/1, PostgreSQL with a boolean.
      if (!row || !Number(row.client_registered)) return undefined;
      const { client_registered: _registered, ...user } = row;
      const scopes = typeof claims.scope === 'string' ? parseScopes(claims.scope) : [];
      return { user, scopes, clientId };
    },
  };
}
