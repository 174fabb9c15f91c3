// The per-credential counts of one process live in @fastify/rate-limit's memory store,
// created with RATE_LIMIT_STORE_SIZE: past that many credentials the least recently used
// count is dropped, so the store never grows with every credential that ever called.
import { createRequire } from 'node:module';
import { expect, it } from 'vitest';
import { RATE_LIMIT_STORE_SIZE } from './rate-limit.ts';

// The store the plugin builds from its `cache` option when no Redis is given.
const LocalStore = createRequire(import.meta.url)('@fastify/rate-limit/store/LocalStore.js') as new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  cache: number,
) => { incr(key: string, cb: () => void, timeWindow: number, max: number): void; lru: { size: number } };

it(`counts at most ${RATE_LIMIT_STORE_SIZE} credentials`, () => {
  const store = new LocalStore(false, false, RATE_LIMIT_STORE_SIZE);
  for (let i = 0; i < RATE_LIMIT_STORE_SIZE + 10_000; i++) store.incr(`token:${i}`, () => {}, 60_000, 1200);
  expect(store.lru.size).toBe(RATE_LIMIT_STORE_SIZE);
});
