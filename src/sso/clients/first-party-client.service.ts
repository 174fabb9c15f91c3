// The service's own OpenID client: the broker app under /app (src/broker-app). Its users
// agreed to it by having an account, so the provider grants it the OpenID scope without
// a consent page (provider/provider.ts, loadExistingGrant); every other client asks for
// consent. It registers itself on every sign-in (docs/design.md section 7), so a changed
// PUBLIC_URL or a client deleted from the CLI heals itself.
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { hashToken } from '../../auth/api-token.service.ts';
import type { Database } from '../../db/database.ts';
import { loadSharedSecret } from '../keys/provider-secrets.ts';
import { upsertClient } from './client.repository.ts';

export const FIRST_PARTY_CLIENT_ID = 'lead-intake-broker-app';
const FIRST_PARTY_CLIENT_NAME = 'Lead intake broker app';
/** Its secret, one for every process (keys/provider-secrets.ts); the name it has always had in the database. */
const SECRET_NAME = 'broker-app-client-secret';

export interface FirstPartyClient {
  readonly clientId: string;
  readonly secret: string;
}

/** Registers (or repairs) the first-party client with its one redirect URI; two processes doing it at once agree. */
export async function ensureFirstPartyClient(db: Kysely<Database>, redirectUri: string): Promise<FirstPartyClient> {
  const now = new Date().toISOString();
  const secret = await loadSharedSecret(db, SECRET_NAME, () => randomBytes(32).toString('base64url'));
  const registration = { secret_hash: hashToken(secret), redirect_uris: JSON.stringify([redirectUri]) };
  await upsertClient(
    db,
    { id: FIRST_PARTY_CLIENT_ID, name: FIRST_PARTY_CLIENT_NAME, created_at: now, ...registration },
    registration,
  );
  return { clientId: FIRST_PARTY_CLIENT_ID, secret };
}
