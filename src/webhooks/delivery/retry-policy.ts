// What an attempt's result means for its delivery (docs/design.md section 5): 2xx is success;
// 410 Gone stops the URL; a refused address is never tried again; anything else is retried
// after the next wait of the schedule (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h by default),
// never earlier than a 429/503 answer's Retry-After asks, until the schedule runs out.
import type { SendResult } from './webhook.sender.ts';
import type { AttemptOutcome, DeliveryStatus } from '../webhook.table.ts';

/** A Retry-After beyond this is read as this: a receiver cannot park an event for weeks. */
export const MAX_RETRY_AFTER_MS = 24 * 60 * 60 * 1000;

export interface Decision {
  readonly outcome: AttemptOutcome;
  readonly status: DeliveryStatus;
  readonly nextAttemptAt: Date | null;
  readonly stopUrl: boolean;
}

/**
 * @param attemptInRound 1 for the first attempt of a round (a delivery's first, or the
 *   first after a replay), 2 for the first retry, ...
 */
export function decide(result: SendResult, attemptInRound: number, schedule: readonly number[], now: Date): Decision {
  const done = (outcome: AttemptOutcome, status: DeliveryStatus, stopUrl = false): Decision => ({
    outcome,
    status,
    nextAttemptAt: null,
    stopUrl,
  });
  const code = result.statusCode;
  if (code !== null && code >= 200 && code < 300) return done('delivered', 'delivered');
  if (result.refused) return done('refused', 'failed');
  if (code === 410) return done('gone', 'failed', true);
  const wait = schedule[attemptInRound - 1];
  if (wait === undefined) return done('failed', 'failed');
  const asked =
    (code === 429 || code === 503) && result.retryAfterMs !== null
      ? Math.min(result.retryAfterMs, MAX_RETRY_AFTER_MS)
      : 0;
  return {
    outcome: 'retry',
    status: 'pending',
    nextAttemptAt: new Date(now.getTime() + Math.max(wait, asked)),
    stopUrl: false,
  };
}
