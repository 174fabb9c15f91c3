// Row type of the broker app's sessions (migration 2026-11-23T04-00_broker_app_sessions).
export interface AppSessionTable {
  /** SHA-256 (hex) of the cookie's random value; the value itself is never stored. */
  id_hash: string;
  user_id: string;
  created_at: string;
  expires_at: string;
}
