// Addresses are searched street first on both databases (postgres-streets.repository.ts,
// sqlite-streets.repository.ts): a street in one postal area holds every word of its addresses
// but their house and box numbers, so a query's other words name its few streets among
// some hundred thousand, where the addresses' own index would gather every address holding
// each frequent word ("rue", "de", "jan") first.
import type { Tier } from '../search/search-tiers.ts';
import { firstAtOrAfter } from '../search/sorted-words.ts';

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
