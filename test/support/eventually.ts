// Waiting for something that happens in the background (a worker, another process): for a
// positive signal, never for a while (docs/design.md section 10, "Tests"). A wait that ends
// because time passed proves nothing: to show that something did not happen, wait for what
// would have come with it or after it (deliveries.ts), and to let an expiry or a window pass,
// move the server's clock (test-clock.ts).

/**
 * Polls `probe` until it returns something other than undefined or false, and returns
 * that: a probe may answer with the thing it waited for, or with whether it happened. A
 * probe that throws ends the wait with its error (a process that gave up instead of
 * waiting, say). Running out of time is a failure, never an answer.
 */
export async function eventually<T>(
  probe: () => Promise<T | undefined | false>,
  timeoutMs = 20_000,
  what = 'condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    // Between two looks at the probe, not a signal of anything.
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
