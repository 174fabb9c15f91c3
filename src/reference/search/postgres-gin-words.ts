// Which words of a search tier a PostgreSQL GIN scan should gather. A GIN index answers
// `doc @@ 'rue & de & l & eglise & 45a & virois'` by reading the posting list of every
// word, and "rue", "de" and "l" are each in a third of all addresses: 7.5 ms for the one
// address found, and a prefix such as "l:*" unions thousands of lists (181 ms). The rare
// words alone narrow the rows to a handful (0.4 ms); the whole tier is then checked on
// those rows. Which words are frequent comes from the planner's own statistics of the
// column (pg_stats.most_common_elems, gathered by the import's ANALYZE), so it needs no
// table of our own and follows the data. The condition itself is SQL: ginCondition in
// postgres-tiers.repository.ts.
import type { Tier } from './search-tiers.ts';
import { firstAtOrAfter } from './sorted-words.ts';

/** A word in more than this share of rows is left out of the index condition, only checked. */
const FREQUENT = 0.01;
/** A word in more than this share is gathered only when no word is rarer. */
const FAIRLY_COMMON = 0.1;

/** The column's most common words, sorted, with the share of rows holding each. */
export interface TermFrequencies {
  readonly terms: readonly string[];
  readonly shares: readonly number[];
}

export const NO_FREQUENCIES: TermFrequencies = { terms: [], shares: [] };

/** From pg_stats: `most_common_elems` as text[] and `most_common_elem_freqs` (three trailing summary values). */
export function termFrequencies(elements: readonly string[] | null, shares: readonly number[] | null): TermFrequencies {
  if (!elements || !shares) return NO_FREQUENCIES;
  const pairs = elements
    .map((term, i) => [term, shares[i] ?? 0] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return { terms: pairs.map(([term]) => term), shares: pairs.map(([, share]) => share) };
}

/** The share of rows a tier word matches, at least as far as the statistics know. */
export function share(frequencies: TermFrequencies, word: string, prefix: boolean): number {
  const { terms, shares } = frequencies;
  const low = firstAtOrAfter(terms, word);
  if (!prefix) return terms[low] === word ? shares[low]! : 0;
  // A prefix of one or two letters gathers thousands of words, each rare or not.
  if (word.length <= 2) return 1;
  let total = 0;
  for (let i = low; i < terms.length && terms[i]!.startsWith(word); i++) total += shares[i]!;
  return total;
}

/** The fewest and the most rows a tier's probe reads in key order (see probeRows). */
const LEAST_PROBE_ROWS = 2000;
const MOST_PROBE_ROWS = 20_000;

/**
 * How many rows, in key order, a tier should read before it asks the index: enough to find
 * a page's rows at the density its words' shares promise (taken as independent, the
 * lower guess; a probe stops at the page's rows, so reading more is free when they are
 * denser). None when a word is rare (the index gathers its short list for less: a probe
 * of 3,000 versions took 4 ms where the index took 0.2) or the guess is hopeless. A GIN
 * scan of two words in 5 and 8 % of all enterprises took 26 ms where 16,000 rows in key
 * order found the page in 5.
 */
export function probeRows(tier: Tier, frequencies: TermFrequencies, wanted: number): number {
  if (tier.some(({ word, prefix }) => share(frequencies, word, prefix) < FREQUENT)) return 0;
  const density = tier.reduce(
    (product, { word, prefix }) => product * Math.min(1, share(frequencies, word, prefix)),
    1,
  );
  const rows = Math.ceil((3 * wanted) / density);
  if (!(rows <= 10 * MOST_PROBE_ROWS)) return 0;
  return Math.min(MOST_PROBE_ROWS, Math.max(LEAST_PROBE_ROWS, rows));
}

/**
 * The words of a tier a GIN scan gathers: the rare ones (at least two when a fairly common
 * one is at hand; when every word is frequent, the rarest). The whole tier is then checked
 * on the rows they find (postgres-tiers.repository.ts, ginCondition).
 */
export function gatheredWords(tier: Tier, frequencies: TermFrequencies): Tier {
  const rated = tier.map((part) => ({ part, share: share(frequencies, part.word, part.prefix) }));
  const byShare = rated.toSorted((a, b) => a.share - b.share);
  const gathered = byShare.filter(({ share }) => share < FREQUENT);
  // One rare word can still be a whole town's addresses, each then checked on its row: a
  // second, fairly common word narrows them in the index for less.
  for (const next of byShare.slice(gathered.length)) {
    if (gathered.length >= 2 || (gathered.length === 1 && next.share >= FAIRLY_COMMON)) break;
    gathered.push(next);
  }
  return gathered.map(({ part }) => part);
}
