import { describe, expect, it } from 'vitest';
import { probeRows, share, termFrequencies } from './postgres-gin-words.ts';

// As pg_stats gives them: elements unsorted, frequencies with three summary values after.
const frequencies = termFrequencies(
  ['rue', 'de', 'l', 'eglise', 'station', 'stationsstraat', '5'],
  [0.33, 0.4, 0.2, 0.05, 0.004, 0.003, 0.05, 0.003, 0.4, 0],
);

describe('share', () => {
  it('is the statistics share of a whole word, 0 for a word they do not list', () => {
    expect(share(frequencies, 'rue', false)).toBe(0.33);
    expect(share(frequencies, 'virois', false)).toBe(0);
  });

  it('sums the listed words a prefix begins, and counts a prefix of one or two letters as everything', () => {
    expect(share(frequencies, 'stat', true)).toBeCloseTo(0.007);
    expect(share(frequencies, 'egl', true)).toBe(0.05);
    expect(share(frequencies, 'de', true)).toBe(1);
    expect(share(frequencies, 'xyz', true)).toBe(0);
  });
});

describe('probeRows', () => {
  const tier = (...words: string[]) => words.map((word) => ({ word, prefix: false }));

  it('reads as many rows in key order as the words promise a page from, within bounds', () => {
    expect(probeRows(tier('rue'), frequencies, 21)).toBe(2000);
    expect(probeRows(tier('rue', 'eglise'), frequencies, 21)).toBe(3819);
    expect(probeRows(tier('l', 'eglise'), frequencies, 21)).toBe(6300);
  });

  it('asks the index at once for a rare word, listed or not, or when no probe could fill the page', () => {
    expect(probeRows(tier('rue', 'virois'), frequencies, 21)).toBe(0);
    expect(probeRows(tier('station', 'rue'), frequencies, 21)).toBe(0);
    expect(probeRows(tier('station', 'stationsstraat'), frequencies, 21)).toBe(0);
  });
});
