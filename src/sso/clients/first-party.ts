// The service's own OpenID client: the broker app under /app (src/broker-app). Its users
// agreed to it by having an account, so the provider grants it the OpenID scope without
// a consent page (provider/provider.ts, loadExistingGrant); every other client asks for consent.
export const FIRST_PARTY_CLIENT_ID = 'lead-intake-broker-app';
