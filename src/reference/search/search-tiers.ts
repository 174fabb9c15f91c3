// Ranking without scoring every match: a query runs as up to three tiers, each a plain
// index match stopped at the rows a page needs, best tier first.
//   1. every word whole ("wetstraat 16 brussel": the exact house number 16)
//   2. every word whole but the last, which is being typed (autocomplete)
//   3. every word a prefix, but numbers before the last word stay whole: a house number
//      or postcode typed in full means itself ("wetstraat 16 brussel" is not number 160),
//      and a short number as a prefix matches a large share of all addresses
// A row found by an earlier tier is not repeated. bm25 or ts_rank would score every
// match before the first row comes back, so a short prefix such as "r" in six million
// addresses would cost seconds; a tier costs what its page costs.

export type Tier = readonly { readonly word: string; readonly prefix: boolean }[];

export function searchTiers(words: readonly string[]): Tier[] {
  const tier = (prefixed: (index: number) => boolean): Tier =>
    words.map((word, index) => ({ word, prefix: prefixed(index) }));
  const last = (index: number) => index === words.length - 1;
  const tiers = [tier(() => false), tier(last), tier((index) => last(index) || !/^\d+$/.test(words[index]!))];
  // Tiers that ask the same as an earlier one are left out (one word: tiers 2 and 3).
  return tiers.filter(
    (candidate, index) => !tiers.slice(0, index).some((earlier) => ftsTier(earlier) === ftsTier(candidate)),
  );
}

/**
 * The indexed terms a prefix stands for, when the prefix is longer than FTS5's prefix
 * indexes reach (sqlite-fts.repository.ts); undefined to leave it a prefix query. FTS5 answers
 * such a prefix by merging the whole posting list of every term it covers before the first
 * row comes back: "bruxelles*" cost 5 ms in 6.6 million addresses, the same as an OR of
 * its whole terms costs 0.3 ms, since an OR reads its lists only as far as the page needs.
 */
export type PrefixTerms = (prefix: string) => readonly string[] | undefined;

/** An FTS5 MATCH expression for one tier. Words are letters and digits only: quoting keeps FTS5 syntax out. */
export function ftsTier(tier: Tier, column?: string, prefixTerms?: PrefixTerms): string {
  const terms = tier
    .map(({ word, prefix }) => {
      if (!prefix) return `"${word}"`;
      const whole = prefixTerms?.(word);
      if (!whole) return `"${word}"*`;
      // No indexed term has the prefix: the word itself, which then matches nothing either.
      return whole.length === 0 ? `"${word}"` : `(${whole.map((term) => `"${term}"`).join(' OR ')})`;
    })
    .join(' AND ');
  return column ? `${column} : (${terms})` : terms;
}

/** A to_tsquery('simple', ...) text for one tier. */
export function tsTier(tier: Tier): string {
  return tier.map(({ word, prefix }) => `${word}${prefix ? ':*' : ''}`).join(' & ');
}

/** Every word a prefix: for filters (a municipality) that need no ranking. */
export function ftsAllPrefixes(words: readonly string[], column?: string, prefixTerms?: PrefixTerms): string {
  return ftsTier(
    words.map((word) => ({ word, prefix: true })),
    column,
    prefixTerms,
  );
}
