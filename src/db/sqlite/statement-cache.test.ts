// The statement cache keeps at most `max` statements whatever the texts asked for, and a
// text in use stays while one-off texts pass through.
import { expect, it } from 'vitest';
import { StatementCache } from './statement-cache.ts';

it('keeps at most max statements, the least recently used dropped', () => {
  let prepared = 0;
  const cache = new StatementCache(10, (sql) => {
    prepared++;
    return { sql };
  });
  const hot = cache.get('select hot');
  for (let i = 0; i < 1000; i++) {
    cache.get(`select ${i}`);
    expect(cache.get('select hot')).toBe(hot);
  }
  expect(cache.size).toBe(10);
  expect(prepared).toBe(1001);
});
