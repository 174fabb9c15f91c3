// Addresses on PostgreSQL, searched street first. A query of frequent words ("Rue Jan Van
// de", each word in 5 to 30 % of all addresses, together in a few hundred) costs a GIN scan
// of the addresses hundreds of milliseconds: it gathers a posting list of hundreds of
// thousands of rows. The same words among the streets (one row per street in a postal
// area, some 60 addresses each, address-indexes.repository.ts) name a handful in a millisecond, and
// the addresses of those streets are read in key order from an index. The answer is the
// same: every address row is still checked against the whole tier. Which words name the
// streets: street-words.ts.
import { escapeLiteral } from 'pg';
import type { TermFrequencies } from '../search/postgres-gin-words.ts';
import { type OtherWay, type SearchTier, searchTiersOf, tsquery } from '../search/postgres-tiers.repository.ts';
import { type Tier, tsTier } from '../search/search-tiers.ts';
import type { Page } from '../store/rows.ts';
import { streetWords } from './street-words.ts';

/** More streets than this and the addresses' own index answers instead (each street is an index probe). */
export const MOST_STREETS = 256;

export interface AddressTier extends SearchTier {
  /** The whole tier and the filters, checked on a row found by other means (a street's). */
  readonly check: string;
  /** Words every matching address's street holds, unless a house or box number does. */
  readonly streetWords?: Tier;
}

/** The tiers of an address search, each with what its streets must hold when `houseTerms` are known. */
export function addressTiers(
  words: readonly string[],
  frequencies: TermFrequencies,
  page: Page,
  filters: string,
  houseTerms?: readonly string[],
): AddressTier[] {
  return searchTiersOf(words, frequencies, page, filters).map((search) => {
    const narrowing = houseTerms ? streetWords(search.words, houseTerms) : [];
    return {
      ...search,
      check: `ts_match_vq(doc, ${tsquery(tsTier(search.words))}) ${filters}`,
      ...(narrowing.length > 0 && { streetWords: narrowing }),
    };
  });
}

/**
 * A tier's streets first (`streets`: the schema of the streets and house words); when they
 * are few, the first rows of each in key order, else the addresses' own index.
 */
export const byStreets =
  (streets: string): OtherWay<AddressTier> =>
  ({ check, streetWords }, { tier, key, table, wanted, probe, unprobed, fromProbe, fromIndex }) => {
    if (streetWords === undefined) return undefined;
    const streetCount = `(select count(*) from s${tier})`;
    const fromStreets = `select ${key}, ${tier} as tier from (select r.${key} from s${tier} cross join lateral
          (select ${key} from ${table} a where a.street = s${tier}.street and ${check} order by ${key} limit ${wanted}) r
        where ${unprobed} and ${streetCount} <= ${MOST_STREETS} order by r.${key} limit ${wanted}) g`;
    return [
      probe,
      // The words were told apart from house words as this server last read them; should an
      // import have changed those since, the statement sees it here and takes the index.
      `s${tier} as materialized (select street from ${streets}.street where ${unprobed}
        and doc @@ ${tsquery(tsTier(streetWords))}
        and not exists (select from ${streets}.house_term h where ${streetWords
          .map(({ word, prefix }) =>
            prefix ? `starts_with(h.term, ${escapeLiteral(word)})` : `h.term = ${escapeLiteral(word)}`,
          )
          .join(' or ')})
        limit ${MOST_STREETS + 1})`,
      `t${tier} as materialized (${fromProbe} union all ${fromStreets}
        union all ${fromIndex(`and ${streetCount} > ${MOST_STREETS}`)})`,
    ];
  };
