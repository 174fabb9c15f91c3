// Row types of the single sign-on tables (src/db/migrations/2026-11-20T02-00_sso.ts).

export interface UserTable {
  /** The user id: `sub` and `uid` of the userinfo answer. */
  id: string;
  broker_id: string;
  distribution_id: string;
  email: string;
  username: string;
  /** The name colleagues and partners read (the users listing); null when none was given. */
  name: string | null;
  /** Lower-cased email and username: both are unique regardless of case. */
  email_key: string;
  username_key: string;
  /** argon2id, PHC string format. */
  password_hash: string;
  language: string;
  country: string;
  locale: string;
  role: string;
  created_at: string;
  disabled_at: string | null;
  last_login: string | null;
}

export interface SsoClientTable {
  /** The OAuth client_id. */
  id: string;
  name: string;
  /** SHA-256 (hex) of the client secret; the secret itself is never stored. */
  secret_hash: string;
  /** JSON array of absolute URIs. */
  redirect_uris: string;
  created_at: string;
}

export interface OidcPayloadTable {
  model: string;
  id: string;
  /** oidc-provider's payload as JSON. */
  payload: string;
  grant_id: string | null;
  user_code: string | null;
  uid: string | null;
  expires_at: string | null;
  consumed_at: number | null;
}

export interface SsoSigningKeyTable {
  kid: string;
  generation: number;
  /** The private JWK as JSON. */
  private_jwk: string;
  created_at: string;
}

export interface SsoSecretTable {
  name: string;
  value: string;
  created_at: string;
}

export interface SsoLoginFailureTable {
  id: string;
  subject: string;
  failed_at: string;
}
