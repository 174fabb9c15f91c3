export interface ApiTokenTable {
  id: string;
  distribution_id: string;
  name: string | null;
  /** SHA-256 (hex) of the secret; the secret itself is never stored. */
  token_hash: string;
  /** `li_` and the next 8 characters of the secret, shown by `token list`; null for tokens issued before it was kept. */
  prefix: string | null;
  /** Space-separated scope names. */
  scopes: string;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
}
