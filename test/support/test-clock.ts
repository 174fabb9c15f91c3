// The clock a test server runs on (src/clock.ts): the system's time plus however far the test
// has moved it. An expiry, a rate window or a retry's due time is reached by moving the
// clock, never by sleeping until it passes (docs/design.md section 10, "Tests").
import type { Clock } from '../../src/clock.ts';

export class TestClock implements Clock {
  #ahead = 0;

  now(): number {
    return Date.now() + this.#ahead;
  }

  /** Moves the clock forward; what was due before the new time is due now. */
  advance(ms: number): void {
    if (ms < 0) throw new Error('a clock is moved forward only');
    this.#ahead += ms;
  }

  /** The clock's time as the tables store times. */
  iso(): string {
    return new Date(this.now()).toISOString();
  }
}
