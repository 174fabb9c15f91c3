// oidc-provider's storage over our Kysely database: sessions, interactions, grants,
// authorization codes and refresh tokens survive restarts and are shared by every
// process on one PostgreSQL. One generic table keyed by (model, id); clients come from
// their own table (managed by `lead-intake client ...`). JWT access tokens are never
// stored: they are self-contained (RFC 9068).
import { errors, type Adapter, type AdapterPayload } from 'oidc-provider';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { OidcPayloadTable } from '../sso.table.ts';
import { findClientMetadata } from '../clients/client.service.ts';
import { isStorableText } from '../../http/storable-text.ts';
import {
  deletePayload,
  deletePayloadsOfGrant,
  findPayload,
  markConsumed,
  upsertPayload,
} from './oidc-payload.repository.ts';
import { REFRESH_SCOPES } from '../tokens/scopes.ts';
import { GRANT_WITHOUT_REFRESH_TTL } from '../tokens/token-lifetimes.ts';

const epochSeconds = () => Math.floor(Date.now() / 1000);

export function createAdapterFactory(db: Kysely<Database>): (model: string) => Adapter {
  return (model) => (model === 'Client' ? new ClientAdapter(db) : new PayloadAdapter(db, model));
}

class PayloadAdapter implements Adapter {
  readonly #db: Kysely<Database>;
  readonly #model: string;

  constructor(db: Kysely<Database>, model: string) {
    this.#db = db;
    this.#model = model;
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const row: OidcPayloadTable = {
      model: this.#model,
      id,
      payload: JSON.stringify(payload),
      grant_id: payload.grantId ?? null,
      user_code: payload.userCode ?? null,
      uid: payload.uid ?? null,
      expires_at: expiresAt(this.#model, payload, expiresIn),
      consumed_at: typeof payload.consumed === 'number' ? payload.consumed : null,
    };
    await upsertPayload(this.#db, row);
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    return this.#findWhere('id', id);
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return this.#findWhere('uid', uid);
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    return this.#findWhere('user_code', userCode);
  }

  /**
   * Marks a code or token used. Atomic: when two requests exchange the same code at
   * once, only one marks it and the other is refused like a reused code.
   */
  async consume(id: string): Promise<void> {
    if (!isStorableText(id)) throw new errors.InvalidGrant('grant not found');
    if (!(await markConsumed(this.#db, this.#model, id, epochSeconds())))
      throw new errors.InvalidGrant('grant already consumed');
  }

  async destroy(id: string): Promise<void> {
    if (!isStorableText(id)) return;
    await deletePayload(this.#db, this.#model, id);
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await deletePayloadsOfGrant(this.#db, this.#model, grantId);
  }

  async #findWhere(column: 'id' | 'uid' | 'user_code', value: string): Promise<AdapterPayload | undefined> {
    // Codes, tokens and session ids come from the client (form fields, cookies): one with a
    // NUL or a lone surrogate names nothing, and PostgreSQL could not even compare it.
    if (!isStorableText(value)) return undefined;
    const row = await findPayload(this.#db, this.#model, column, value, new Date().toISOString());
    if (!row) return undefined;
    const payload = JSON.parse(row.payload) as AdapterPayload;
    return row.consumed_at === null ? payload : { ...payload, consumed: row.consumed_at };
  }
}

/**
 * No expiresIn: the model never expires (production refresh tokens, and the grants they
 * live on). A grant without `offline`/`offline_access` has no refresh token, though, and
 * serves only its browser session; it gets a bounded life so such grants do not pile up.
 */
function expiresAt(model: string, payload: AdapterPayload, expiresIn: number | undefined): string | null {
  const grantedScopes = new Set(((payload as { openid?: { scope?: string } }).openid?.scope ?? '').split(' '));
  const ttl =
    expiresIn ??
    (model === 'Grant' && !REFRESH_SCOPES.some((scope) => grantedScopes.has(scope))
      ? GRANT_WITHOUT_REFRESH_TTL
      : undefined);
  return ttl === undefined ? null : new Date(Date.now() + ttl * 1000).toISOString();
}

/** Clients are read from sso_clients; they are registered with the CLI, never by the provider. */
class ClientAdapter implements Adapter {
  readonly #db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.#db = db;
  }
  async find(id: string): Promise<AdapterPayload | undefined> {
    return findClientMetadata(this.#db, id);
  }
  async upsert(): Promise<void> {
    throw new Error('clients are managed with `lead-intake client`');
  }
  async destroy(): Promise<void> {
    throw new Error('clients are managed with `lead-intake client`');
  }
  async findByUid(): Promise<undefined> {
    return undefined;
  }
  async findByUserCode(): Promise<undefined> {
    return undefined;
  }
  async consume(): Promise<void> {}
  async revokeByGrantId(): Promise<void> {}
}
