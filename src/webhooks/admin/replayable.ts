// Which failed deliveries "Send again" can help (docs/broker-app.md, the timeline): one that ran out of
// retries on the receiver's answers can succeed later. One refused for its address (the
// address guard refuses it again), one whose receiver answered 410 Gone, or one stopped with
// its URL, cannot: the broker app offers no button for them and refuses a replay of them.
import type { AttemptOutcome, DeliveryStatus } from '../webhook.table.ts';

/** A last attempt with one of these outcomes ends a delivery for good, as far as the broker app goes. */
export const FINAL_OUTCOMES = ['refused', 'gone', 'stopped'] as const satisfies readonly AttemptOutcome[];

export function canSucceedAgain(status: DeliveryStatus, lastOutcome: AttemptOutcome | undefined): boolean {
  return status === 'failed' && !(FINAL_OUTCOMES as readonly string[]).includes(lastOutcome ?? '');
}
