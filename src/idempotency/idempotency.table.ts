// Row types of the Idempotency-Key store (migration 2026-11-26T04-00_idempotency).
export type IdempotencyState = 'running' | 'done';

export interface IdempotencyKeyTable {
  id: string;
  /** SHA-256 (hex) of credential, method, path and key. */
  lookup: string;
  distribution_id: string | null;
  /** SHA-256 (hex) of method, request target and body bytes. */
  fingerprint: string;
  state: IdempotencyState;
  status: number | null;
  /** The answer's Location, ETag and Content-Type, as a JSON object. */
  headers: string | null;
  body: string | null;
  created_at: string;
  /** A claim's lease end, or a stored answer's; past it the row counts as absent. */
  expires_at: string;
}

export interface IdempotencyKeyPartyTable {
  key_id: string;
  distribution_id: string;
  party_id: string;
}
