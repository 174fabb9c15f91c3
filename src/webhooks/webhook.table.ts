// Row types of the webhook tables (migration 2026-11-20T01-00_webhooks). Timestamps are
// ISO 8601 UTC text like everywhere else, so they compare correctly as text.

/** The events a callback URL receives (docs/design.md section 5). */
export const WEBHOOK_EVENT_TYPES = [
  'lead.created',
  'lead.updated',
  'party.updated',
  'lead.status_changed',
  'lead.erased',
  'party.merged',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
/**
 * How one attempt ended: delivered (2xx), retry (failed, another attempt is scheduled),
 * failed (the last attempt failed), gone (410: the URL is stopped), refused (the address
 * guard would not connect), stopped (not sent: the URL answered 410 before).
 */
export type AttemptOutcome = 'delivered' | 'retry' | 'failed' | 'gone' | 'refused' | 'stopped';

export interface WebhookSigningKeyTable {
  id: string;
  distribution_id: string;
  secret: string;
  created_at: string;
  expires_at: string | null;
}

export interface WebhookEventTable {
  id: string;
  distribution_id: string;
  type: WebhookEventType;
  lead_id: string;
  party_id: string;
  payload: string;
  created_at: string;
}

export interface WebhookDeliveryTable {
  id: string;
  event_id: string;
  distribution_id: string;
  url: string;
  /** The receiver: the URL's lower-case host, with its port when one is given (receiverHost). */
  host: string | null;
  status: DeliveryStatus;
  next_attempt_at: string | null;
  claim_id: string | null;
  attempts: number;
  round_start: number;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookAttemptTable {
  id: string;
  delivery_id: string;
  attempt_nr: number;
  started_at: string;
  duration_ms: number;
  outcome: AttemptOutcome;
  status_code: number | null;
  error: string | null;
}

export interface WebhookStoppedUrlTable {
  distribution_id: string;
  url: string;
  stopped_at: string;
  delivery_id: string;
}

/**
 * A claim on a delivery that an erasure took back (the delivery is gone with the person),
 * kept until the worker that held it is done with it: the erasure answers only then.
 */
export interface WebhookRevokedClaimTable {
  delivery_id: string;
  claim_id: string;
  /** The claim's lease: nothing is sent on it after that. */
  until: string;
}

/** The receiver a callback URL names, as deliveries store it: per-host limits count by it. */
export function receiverHost(url: string): string {
  return URL.parse(url)?.host.toLowerCase() ?? '';
}

/**
 * Logs name the receiver as scheme://host:port only (docs/design.md section 14): a callback
 * URL's path and query can name the person it is about, and its user part can hold a secret.
 */
export function receiverOrigin(url: string): string {
  const parsed = URL.parse(url);
  if (parsed === null) return '(invalid URL)';
  const port = parsed.port || (parsed.protocol === 'https:' ? '443' : parsed.protocol === 'http:' ? '80' : '');
  return `${parsed.protocol}//${parsed.hostname}${port ? `:${port}` : ''}`;
}
