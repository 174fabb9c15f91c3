// The rate limit's memory store (rate-window-store.ts): fixed windows on the clock it is
// given, and at most RATE_LIMIT_STORE_SIZE credentials, the least recently used dropped, so
// the store never grows with every credential that ever called.
import { expect, it } from 'vitest';
import { RATE_LIMIT_STORE_SIZE } from './rate-limit.ts';
import { memoryWindowStore } from './rate-window-store.ts';

function storeAt(time: { now: number }) {
  const Store = memoryWindowStore({ now: () => time.now }, RATE_LIMIT_STORE_SIZE);
  const store = new Store({});
  return (key: string, timeWindow = 60_000) => {
    let result: { current: number; ttl: number } | undefined;
    store.incr(key, (_error, counted) => (result = counted), timeWindow, 1200);
    return result!;
  };
}

it('counts in a window that opens with the first request and ends timeWindow later, on its clock', () => {
  const time = { now: 1_000_000 };
  const incr = storeAt(time);
  expect(incr('token:a')).toEqual({ current: 1, ttl: 60_000 });
  time.now += 59_999;
  expect(incr('token:a')).toEqual({ current: 2, ttl: 1 });
  expect(incr('token:b')).toEqual({ current: 1, ttl: 60_000 });
  time.now += 1;
  expect(incr('token:a')).toEqual({ current: 1, ttl: 60_000 });
});

it(`counts at most ${RATE_LIMIT_STORE_SIZE} credentials, dropping the least recently used`, () => {
  const incr = storeAt({ now: 0 });
  incr('token:kept');
  incr('token:first');
  for (let i = 0; i < RATE_LIMIT_STORE_SIZE - 2; i++) incr(`token:${i}`);
  // Full: using one moves it to the end; the next new credential drops the oldest.
  expect(incr('token:kept').current).toBe(2);
  incr('token:new');
  expect(incr('token:kept').current).toBe(3);
  expect(incr('token:first').current).toBe(1);
});
