// The rate limit's counts in memory (rate-limit.ts), read on the app's clock. The same fixed
// windows as @fastify/rate-limit's own memory store (a credential's window opens with its
// first request and ends timeWindow later; the least recently used credential is dropped
// when the store is full), with the time from the injected clock, so a test moves past a
// window instead of waiting for it (docs/design.md section 10, "Tests"). The plugin's
// documented `store` option takes it; with REDIS_URL the windows are Redis keys with
// their own TTL instead.
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Clock } from '../../clock.ts';

interface Window {
  count: number;
  readonly startedAt: number;
}

/** A store class for the plugin's `store` option: it constructs the store itself. */
export function memoryWindowStore(clock: Clock, size: number): FastifyRateLimitStoreCtor {
  class MemoryWindowStore implements FastifyRateLimitStore {
    /** In order of use, the least recently used first (a Map keeps insertion order). */
    readonly #windows = new Map<string, Window>();

    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
    ): void {
      const now = clock.now();
      let window = this.#windows.get(key);
      if (window === undefined || window.startedAt + timeWindow <= now) window = { count: 0, startedAt: now };
      window.count += 1;
      this.#windows.delete(key);
      this.#windows.set(key, window);
      if (this.#windows.size > size) this.#windows.delete(this.#windows.keys().next().value!);
      callback(null, { current: window.count, ttl: window.startedAt + timeWindow - now });
    }

    /** A route with limits of its own gets its own counts, as with the plugin's store. */
    child(): FastifyRateLimitStore {
      return new MemoryWindowStore();
    }
  }
  return MemoryWindowStore;
}
