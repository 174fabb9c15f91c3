// Waiting for something that happens in the background (a worker, another process).

/**
 * Polls `probe` until it returns something other than undefined or false, and returns
 * that: a probe may answer with the thing it waited for, or with whether it happened.
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
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
