// The time the service decides by whether something is due or over: a key's TTL, a rate
// window, a token's expiry, a webhook's next attempt (docs/design.md section 10, "Tests").
// The system's in every process; a test builds its app with a clock it moves, so an expiry
// is reached by moving the clock instead of waiting for it.

export interface Clock {
  /** Milliseconds since the epoch, as Date.now(). */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** The clock's time as an ISO 8601 UTC string, as the tables store times. */
export function isoNow(clock: Clock): string {
  return new Date(clock.now()).toISOString();
}
