// The SSO module's door (docs/design.md section 10): outside src/sso/ only this file is
// imported, and sso.plugin.ts by app.ts, which mounts the provider. What it offers: the
// administration of users, clients and signing keys (the CLI, the demo data, the tests),
// and what the broker app needs as the first-party client. It loads nothing of
// oidc-provider (the provider lives behind sso.plugin.ts), so the CLI starts light.
export type { SsoRuntime } from './sso-runtime.ts';
export type { UserTable } from './sso.table.ts';
export {
  type ActiveUser,
  createUser,
  disableUser,
  findActiveUser,
  listActiveUsersOf,
  listUsers,
  type UserListing,
} from './users/user.service.ts';
export { MIN_PASSWORD_LENGTH } from './users/password.ts';
export { createClient, deleteClient, type IssuedClient, listClients } from './clients/client.service.ts';
export { ensureFirstPartyClient, type FirstPartyClient } from './clients/first-party-client.service.ts';
export { issuerOf, SSO_PATH } from './provider/provider-urls.ts';
export { loadSigningKeys, rotateSigningKeys } from './keys/signing-keys.ts';
export { signingKeyRetention } from './tokens/token-lifetimes.ts';
export { verifyIdToken } from './tokens/id-token.ts';
