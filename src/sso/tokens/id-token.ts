// An ID token of this provider checked by a client in the same process, the broker app
// (docs/design.md section 7): signature against the provider's keys as the database holds
// them now, issuer, audience and expiry, with jose. The nonce is the client's to compare.
import { createLocalJWKSet, jwtVerify, type JWTPayload } from 'jose';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import { SIGNING_ALG, loadSigningKeys, publicJwk } from '../keys/signing-keys.ts';

/** The token's claims; undefined when it does not check out. */
export async function verifyIdToken(
  db: Kysely<Database>,
  idToken: string,
  { issuer, audience }: { issuer: string; audience: string },
): Promise<JWTPayload | undefined> {
  const keys = createLocalJWKSet({ keys: (await loadSigningKeys(db)).map(publicJwk) });
  try {
    const { payload } = await jwtVerify(idToken, keys, { issuer, audience, algorithms: [SIGNING_ALG] });
    return payload;
  } catch {
    return undefined;
  }
}
