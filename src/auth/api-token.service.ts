// API tokens (docs/design.md section 4): 256 random bits, shown once, stored only as a
// SHA-256 hash, bound to one distribution, with a static scope set from API_TOKEN_SCOPES.
// A hash is enough here (no argon2): the secret has full entropy, so there is nothing to
// brute-force, and lookups stay one indexed read.
import { hash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import { requireDistribution } from '../distributions/distribution.service.ts';
import {
  findApiToken,
  findApiTokenIdByHash,
  findApiTokenIdsByPrefix,
  findTokenByHash,
  insertApiToken,
  markRevoked,
  selectApiTokens,
  type TokenRow,
} from './api-token.repository.ts';
import type { ApiTokenTable } from './api-token.table.ts';
import { API_TOKEN_SCOPES, parseScopes, type Caller } from './caller.ts';
import type { CredentialVerifier } from './authorize.ts';
import { TokenCheck, tokenLive } from './token-check-in-write.ts';

const TOKEN_PREFIX = 'li_';
/** How much of a secret `token list` shows (`li_` and 8 characters: 48 of its 256 bits). */
const SHOWN_LENGTH = TOKEN_PREFIX.length + 8;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What may be shown about a token at any time: never the secret, never its hash. */
export interface ApiTokenListing {
  readonly id: string;
  readonly name: string | null;
  /** The secret's first characters, to tell a leaked token apart; null for tokens issued before they were kept. */
  readonly prefix: string | null;
  readonly scopes: readonly string[];
  readonly distribution_id: string;
  readonly created_at: string;
  readonly expires_at: string | null;
  readonly revoked_at: string | null;
}

export interface IssuedApiToken extends Omit<ApiTokenListing, 'revoked_at'> {
  /** The secret: returned once, never stored. */
  readonly token: string;
}

export class UnknownScopeError extends Error {
  readonly scopes: readonly string[];
  constructor(scopes: readonly string[]) {
    super(
      `unknown scope ${scopes.map((s) => JSON.stringify(s)).join(', ')}; API tokens may carry: ${API_TOKEN_SCOPES.join(', ')}`,
    );
    this.name = 'UnknownScopeError';
    this.scopes = scopes;
  }
}

export class UnknownApiTokenError extends Error {
  constructor(id: string) {
    super(`unknown API token ${JSON.stringify(id)}`);
    this.name = 'UnknownApiTokenError';
  }
}

export class AmbiguousApiTokenPrefixError extends Error {
  constructor(prefix: string) {
    super(`more than one API token starts with ${JSON.stringify(prefix)}: revoke it by its id`);
    this.name = 'AmbiguousApiTokenPrefixError';
  }
}

/** Every API request hashes its token: the one-shot `hash` costs a third of a Hash object. */
export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}

/**
 * A new token: li_ and 32 random bytes in base64url, whose first character is never `-`. The
 * prefix `token list` shows may be typed without its li_ (`token revoke x5kQTJg`), and one that
 * began with `-` was read as an option by the command line (test/cli.test.ts failed on one
 * token in 64). Drawing again when it does leaves 32 bytes less 1/64 of their values.
 */
export function newTokenSecret(): string {
  for (;;) {
    const body = randomBytes(32).toString('base64url');
    if (!body.startsWith('-')) return TOKEN_PREFIX + body;
  }
}

/** Issues a token for an existing distribution; the scopes must come from API_TOKEN_SCOPES. */
export async function createApiToken(
  db: Kysely<Database>,
  input: { distributionId: string; scopes: readonly string[]; name?: string | null; expiresAt?: Date | null },
): Promise<IssuedApiToken> {
  const unknown = input.scopes.filter((scope) => !(API_TOKEN_SCOPES as readonly string[]).includes(scope));
  if (unknown.length > 0) throw new UnknownScopeError(unknown);
  const token = newTokenSecret();
  const row: ApiTokenTable = {
    id: randomUUID(),
    distribution_id: input.distributionId,
    name: input.name ?? null,
    token_hash: hashToken(token),
    prefix: token.slice(0, SHOWN_LENGTH),
    scopes: [...new Set(input.scopes)].join(' '),
    created_at: new Date().toISOString(),
    expires_at: input.expiresAt?.toISOString() ?? null,
    revoked_at: null,
  };
  const insert = async (trx: Kysely<Database>) => {
    await requireDistribution(trx, row.distribution_id);
    await insertApiToken(trx, row);
  };
  await (db.isTransaction ? insert(db) : db.transaction().execute(insert));
  const { id, name, prefix, scopes, distribution_id, created_at, expires_at } = toListing(row);
  return { id, token, name, prefix, scopes, distribution_id, created_at, expires_at };
}

/** Every token, or those of one (existing) distribution, oldest first. */
export async function listApiTokens(
  db: Kysely<Database>,
  filter: { distributionId?: string } = {},
): Promise<ApiTokenListing[]> {
  if (filter.distributionId !== undefined) await requireDistribution(db, filter.distributionId);
  return (await selectApiTokens(db, filter.distributionId)).map(toListing);
}

/**
 * Revokes at once (the next request with it gets 401); revoking twice keeps the first time.
 * The token is named by its id, by the prefix `token list` shows (`li_AbCd1234`, or without
 * `li_`), or by the whole secret, as found in a leak.
 */
export async function revokeApiToken(db: Kysely<Database>, named: string, now = new Date()): Promise<ApiTokenListing> {
  const revoke = async (trx: Kysely<Database>) => {
    const id = await tokenIdOf(trx, named.trim());
    await markRevoked(trx, id, now.toISOString());
    const row = await findApiToken(trx, id);
    if (!row) throw new UnknownApiTokenError(id);
    return toListing(row);
  };
  return db.isTransaction ? revoke(db) : db.transaction().execute(revoke);
}

/** The id of the token `named` names (revokeApiToken); throws when it names none, or several. */
async function tokenIdOf(db: Kysely<Database>, named: string): Promise<string> {
  if (UUID.test(named)) return named.toLowerCase();
  const withStart = named.startsWith(TOKEN_PREFIX) ? named : TOKEN_PREFIX + named;
  if (withStart.length > SHOWN_LENGTH) {
    const id = await findApiTokenIdByHash(db, hashToken(withStart));
    if (id === undefined) throw new UnknownApiTokenError(named);
    return id;
  }
  const ids = await findApiTokenIdsByPrefix(db, withStart);
  if (ids.length > 1) throw new AmbiguousApiTokenPrefixError(withStart);
  if (ids[0] === undefined) throw new UnknownApiTokenError(named);
  return ids[0];
}

/** The token's row when it is live at `now`: read by its hash, compared in constant time. */
async function liveTokenRow(db: Kysely<Database>, tokenHash: string, now: string): Promise<TokenRow | undefined> {
  const row = await findTokenByHash(db, tokenHash);
  // The index lookup already matched; the constant-time comparison keeps the final check
  // free of timing differences all the same.
  if (!row || !timingSafeEqual(Buffer.from(row.token_hash), Buffer.from(tokenHash))) return undefined;
  return tokenLive(row, now) ? row : undefined;
}

function callerOf(row: TokenRow): Caller {
  return { kind: 'token', id: row.id, distributionId: row.distribution_id, scopes: parseScopes(row.scopes) };
}

/** How many live tokens a process remembers (a few per partner; the oldest go first). */
const REMEMBERED_TOKENS = 1_000;

/**
 * The `apikey` verifier of a server: the caller a token stands for, or undefined for an
 * unknown, revoked or expired token, read from the database on every request, except on a
 * route whose write reads the token itself (`checkInWrite`, a single push): there a token
 * this process found live before is let through from memory, and its check handed to the
 * request (token-check-in-write.ts). Only live tokens are remembered, by hash, with their
 * caller; one found revoked, expired or gone is forgotten.
 */
export function apiTokenVerifier(db: Kysely<Database>, now: () => Date): CredentialVerifier {
  const remembered = new Map<string, { readonly row: TokenRow; readonly caller: Caller }>();
  const forget = (tokenHash: string) => remembered.delete(tokenHash);
  return async (token, options) => {
    const tokenHash = hashToken(token);
    const at = now().toISOString();
    const known = options?.checkInWrite && remembered.get(tokenHash);
    // Remembered live: only its expiry can have passed since, on this clock.
    if (known && tokenLive(known.row, at)) {
      options.checkInWrite(
        new TokenCheck(
          known.row.id,
          () => forget(tokenHash),
          () => now().toISOString(),
        ),
      );
      return known.caller;
    }
    const row = await liveTokenRow(db, tokenHash, at);
    if (row === undefined) {
      forget(tokenHash);
      return undefined;
    }
    const caller = callerOf(row);
    if (remembered.size >= REMEMBERED_TOKENS) forget(remembered.keys().next().value!);
    remembered.set(tokenHash, { row, caller });
    return caller;
  };
}

function toListing(row: ApiTokenTable): ApiTokenListing {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: parseScopes(row.scopes),
    distribution_id: row.distribution_id,
    created_at: row.created_at,
    expires_at: row.expires_at,
    revoked_at: row.revoked_at,
  };
}
