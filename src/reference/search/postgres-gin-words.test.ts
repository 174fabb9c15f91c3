import { describe, expect, it } from 'vitest';
import { ginCondition, probeRows, share, termFrequencies } from './postgres-gin-words.ts';

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

describe('ginCondition', () => {
  const tier = (...words: string[]) =>
    words.map((word) => ({ word: word.replace('*', ''), prefix: word.endsWith('*') }));

  it('gathers the rare words and a second, fairly common one, and checks the whole tier on their rows', () => {
    expect(ginCondition('doc', tier('rue', 'de', 'l', 'eglise', '45a', 'virois'), frequencies)).toBe(
      "doc @@ to_tsquery('simple', '45a & virois') and ts_match_vq(doc, to_tsquery('simple', 'rue & de & l & eglise & 45a & virois'))",
    );
    expect(ginCondition('doc', tier('rue', 'eglise', 'virois*'), frequencies)).toBe(
      "doc @@ to_tsquery('simple', 'virois:* & eglise') and ts_match_vq(doc, to_tsquery('simple', 'rue & eglise & virois:*'))",
    );
  });

  it('gathers the rarest when every word is frequent, and needs no check when it gathers them all', () => {
    expect(ginCondition('doc', tier('rue', 'de*'), frequencies)).toBe(
      "doc @@ to_tsquery('simple', 'rue') and ts_match_vq(doc, to_tsquery('simple', 'rue & de:*'))",
    );
    expect(ginCondition('doc', tier('stationsstraat', '12'), frequencies)).toBe(
      "doc @@ to_tsquery('simple', '12 & stationsstraat')",
    );
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
