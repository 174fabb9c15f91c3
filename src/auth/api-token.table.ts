export interface ApiTokenTable {
  id: string;
  distribution_id: string;
  name: string | null;
  /** SHA-256 (hex) of the secret; the secret itself is never stored. */
  token_hash: string;
  /** Space-separated scope names. */
  scopes: string;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
}
