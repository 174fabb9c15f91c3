// OAuth clients: the partner platforms that send their users to sign in (docs/design.md
// section 12: a redirect URL in, a client_id and client_secret out). The secret has
// 256 random bits and is stored only as its SHA-256 hash, like API tokens: a full-entropy
// secret needs no slow hash. oidc-provider compares secrets through the client model's
// compareClientSecret, which provider/provider.ts points at verifyClientSecret below.
import { randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { isStorableText } from '../../http/storable-text.ts';
import type { ClientMetadata } from 'oidc-provider';
import { hashToken } from '../../auth/api-token.service.ts';
import { secretsEqual } from '../../auth/secret.ts';
import type { Database } from '../../db/database.ts';
import { deleteClientRow, findClient, insertClient, selectClients } from './client.repository.ts';
import type { SsoClientTable } from '../sso.table.ts';

export class ClientInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ClientInputError';
  }
}

export class UnknownClientError extends Error {
  constructor(id: string) {
    super(`unknown client ${JSON.stringify(id)}`);
    this.name = 'UnknownClientError';
  }
}

export interface ClientListing {
  readonly client_id: string;
  readonly name: string;
  readonly redirect_uris: readonly string[];
  readonly created_at: string;
}

export interface IssuedClient extends ClientListing {
  /** Shown once, never stored. */
  readonly client_secret: string;
}

/** How a stored hash is written into the provider's client metadata. */
const HASH_PREFIX = 'sha256:';

/** True when `presented` is the secret whose hash the client metadata carries. */
export function verifyClientSecret(storedSecret: string | undefined, presented: string): boolean {
  if (!storedSecret?.startsWith(HASH_PREFIX)) return false;
  return secretsEqual(
    Buffer.from(storedSecret.slice(HASH_PREFIX.length), 'hex'),
    Buffer.from(hashToken(presented), 'hex'),
  );
}

/**
 * An absolute https URI, or http on a loopback host (a partner's development setup;
 * RFC 8252 section 7.3), without a fragment (RFC 6749 section 3.1.2).
 */
export function checkRedirectUri(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ClientInputError(`redirect URI ${JSON.stringify(raw)} is not an absolute URI`);
  }
  if (url.hash !== '' || raw.includes('#'))
    throw new ClientInputError(`redirect URI ${JSON.stringify(raw)} must not have a fragment`);
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    throw new ClientInputError(
      `redirect URI ${JSON.stringify(raw)} must use https (http only on localhost or 127.0.0.1)`,
    );
  }
  return raw;
}

export async function createClient(
  db: Kysely<Database>,
  input: { name: string; redirectUris: readonly string[] },
): Promise<IssuedClient> {
  const name = input.name.trim();
  if (name === '') throw new ClientInputError('a client needs a non-empty name');
  if (input.redirectUris.length === 0) throw new ClientInputError('a client needs at least one redirect URI');
  const redirectUris = [...new Set(input.redirectUris.map(checkRedirectUri))];
  const secret = randomBytes(32).toString('base64url');
  const row: SsoClientTable = {
    id: randomUUID(),
    name,
    secret_hash: hashToken(secret),
    redirect_uris: JSON.stringify(redirectUris),
    created_at: new Date().toISOString(),
  };
  await insertClient(db, row);
  const { client_id, ...listing } = toListing(row);
  return { client_id, client_secret: secret, ...listing };
}

export async function listClients(db: Kysely<Database>): Promise<ClientListing[]> {
  return (await selectClients(db)).map(toListing);
}

/** Deletes a client: its code exchanges, refreshes and access tokens stop working at once. */
export async function deleteClient(db: Kysely<Database>, id: string): Promise<ClientListing> {
  return db.transaction().execute(async (trx) => {
    const row = await findClient(trx, id);
    if (!row) throw new UnknownClientError(id);
    await deleteClientRow(trx, id);
    return toListing(row);
  });
}

/** The client as oidc-provider registers it: confidential, code flow, refresh allowed. */
export async function findClientMetadata(db: Kysely<Database>, id: string): Promise<ClientMetadata | undefined> {
  // A client_id from a form or Basic credentials: one PostgreSQL cannot compare names no client.
  if (!isStorableText(id)) return undefined;
  const row = await findClient(db, id);
  if (!row) return undefined;
  return {
    client_id: row.id,
    client_secret: HASH_PREFIX + row.secret_hash,
    client_name: row.name,
    redirect_uris: JSON.parse(row.redirect_uris) as string[],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'client_secret_basic',
  };
}

function toListing(row: SsoClientTable): ClientListing {
  return {
    client_id: row.id,
    name: row.name,
    redirect_uris: JSON.parse(row.redirect_uris) as string[],
    created_at: row.created_at,
  };
}
