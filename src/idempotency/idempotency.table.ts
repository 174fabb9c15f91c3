// Row types of the Idempotency-Key store (migration 2026-11-28T02-00_idempotency_answer_row).
export type IdempotencyState = 'running' | 'done';

export interface IdempotencyAnswerTable {
  /** SHA-256 (hex) of credential, method, path and key: the row's key. */
  lookup: string;
  distribution_id: string | null;
  /** The one person the answer shows, which the erasure finds it by; null for none or several (links). */
  party_id: string | null;
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

/** One person an answer that shows several (a batch's) shows. */
export interface IdempotencyAnswerPartyTable {
  lookup: string;
  distribution_id: string;
  party_id: string;
}
