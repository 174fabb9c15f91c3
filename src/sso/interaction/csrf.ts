// CSRF tokens of the login and consent forms: an HMAC of the interaction's id under the
// provider's shared cookie key. The interaction id lives only in an httpOnly cookie, so a
// page on another site can neither read nor compute the token; any process behind the
// load balancer can check it, and the token dies with the interaction.
import { createHmac } from 'node:crypto';
import { secretsEqual } from '../../auth/secret.ts';

export function csrfToken(key: string, interactionId: string): string {
  return createHmac('sha256', key).update(`csrf:${interactionId}`).digest('base64url');
}

export function isValidCsrfToken(key: string, interactionId: string, presented: unknown): boolean {
  if (typeof presented !== 'string') return false;
  return secretsEqual(Buffer.from(csrfToken(key, interactionId)), Buffer.from(presented));
}
