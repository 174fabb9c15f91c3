// Addresses on PostgreSQL, searched street first. A query of frequent words ("Rue Jan Van
// de", each word in 5 to 30 % of all addresses, together in a few hundred) costs a GIN scan
// of the addresses hundreds of milliseconds: it gathers a posting list of hundreds of
// thousands of rows. The same words among the streets (one row per street in a postal
// area, some 60 addresses each, postgres-indexes.ts) name a handful in a millisecond, and
// the addresses of those streets are read in key order from an index. The answer is the
// same: every address row is still checked against the whole tier.
import type { Tier } from '../search-tiers.ts';
import { firstAtOrAfter } from './postgres-gin-words.ts';

/** More streets than this and the addresses' own index answers instead (each street is an index probe). */
export const MOST_STREETS = 256;

/**
 * The words of a tier that the street of every address matching it must hold: all but those
 * a house or box number could be (`houseTerms`, sorted), which may sit in the address alone.
 * A prefix of one or two letters is left to the row check: it stands for thousands of words,
 * a costly list to gather and no narrower than the others. Empty when no word narrows.
 */
export function streetWords(tier: Tier, houseTerms: readonly string[]): Tier {
  return tier.filter(({ word, prefix }) => {
    if (prefix && word.length <= 2) return false;
    const at = firstAtOrAfter(houseTerms, word);
    const next = houseTerms[at];
    return !(next !== undefined && (prefix ? next.startsWith(word) : next === word));
  });
}
