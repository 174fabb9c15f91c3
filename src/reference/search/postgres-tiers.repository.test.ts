// The SQL condition of a search tier over a GIN-indexed column: the words
// postgres-gin-words.ts gathers, and the whole tier checked on their rows.
import { describe, expect, it } from 'vitest';
import { termFrequencies } from './postgres-gin-words.ts';
import { ginCondition } from './postgres-tiers.repository.ts';

// As pg_stats gives them (postgres-gin-words.test.ts).
const frequencies = termFrequencies(
  ['rue', 'de', 'l', 'eglise', 'station', 'stationsstraat', '5'],
  [0.33, 0.4, 0.2, 0.05, 0.004, 0.003, 0.05, 0.003, 0.4, 0],
);

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
