// Verifying a webhook the way the service signs it: Standard Webhooks
// (https://www.standardwebhooks.com/), an HMAC-SHA256 over "<webhook-id>.<webhook-timestamp>.<raw body>"
// keyed with the distribution's `whsec_` secret. The timestamp must be within five minutes
// of this machine's clock, so a captured delivery cannot be replayed later.
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { WebhookEvent } from './schema.d.ts';

export { WebhookVerificationError };

/** Headers as fetch (`Headers`), Node's http (`IncomingHttpHeaders`) or a plain object give them. */
export type WebhookHeaders = Headers | Readonly<Record<string, string | readonly string[] | undefined>>;

/**
 * The event, once its signature checks out against `secret`; throws WebhookVerificationError
 * otherwise. Pass the body exactly as received (before any JSON parsing): the signature
 * covers its bytes. Deduplicate on `event.id` (= `webhook-id`): delivery is at least once.
 */
export function verifyWebhook(rawBody: string | Uint8Array, headers: WebhookHeaders, secret: string): WebhookEvent {
  const body = typeof rawBody === 'string' ? rawBody : new TextDecoder().decode(rawBody);
  return new Webhook(secret).verify(body, signatureHeaders(headers)) as WebhookEvent;
}

function signatureHeaders(headers: WebhookHeaders): Record<string, string> {
  const read = (name: string): string => {
    if (headers instanceof Headers) return headers.get(name) ?? '';
    const entry = Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
    return Array.isArray(entry) ? entry.join(' ') : ((entry as string | undefined) ?? '');
  };
  return {
    'webhook-id': read('webhook-id'),
    'webhook-timestamp': read('webhook-timestamp'),
    'webhook-signature': read('webhook-signature'),
  };
}
