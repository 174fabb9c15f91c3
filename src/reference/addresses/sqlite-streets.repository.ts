// Addresses on SQLite, searched street first when the query holds a house or box number
// ("Rue de la Montagne 23 Saint-Desaarde"). FTS5 answers a tier of words by stepping
// through the list of its rarest word and looking each row up in the others' lists: the
// addresses of the rarest street word, some hundreds, each looked up in the lists of "rue",
// "de", "23" and "saint", whose pages it reads and copies, 0.2 to 1 ms a tier. The same words
// without the number name a street or two among the 100,000 streets (address-indexes.repository.ts),
// whose addresses are read in key order from their own table with the words of their
// numbers beside them. The answer is the same: an address matches a word when its street
// does or its house or box number does.
import { ftsTier, type PrefixTerms, type Tier } from '../search/search-tiers.ts';
import { streetWords } from './street-words.ts';
import type { Row } from '../store/rows.ts';
import { rows, type Statements } from '../store/reference-file.repository.ts';

/**
 * More addresses than this on the streets and the addresses' own index answers instead: a
 * tier's rows are sorted into key order, and a few thousand cost more than the index search.
 */
const MOST_STREET_ADDRESSES = 2048;

/** The words house and box numbers hold, sorted; undefined for a file imported before streets were kept. */
export function houseTerms(statement: Statements): readonly string[] | undefined {
  try {
    return rows(statement('select term from house_term order by term')).map(({ term }) => String(term));
  } catch {
    return undefined;
  }
}

/**
 * The first `wanted` addresses matching a tier and the filters (FTS5 column filters, as
 * the addresses' search takes them), in key order, found by their streets; undefined when
 * the streets would not narrow the search and the addresses' own index should answer.
 */
export function streetTier(
  statement: Statements,
  tier: Tier,
  filters: string,
  terms: PrefixTerms,
  houseWords: readonly string[],
  wanted: number,
): Row[] | undefined {
  const narrowing = streetWords(tier, houseWords);
  const numbers = tier.filter((word) => !narrowing.includes(word));
  // Without a whole number the words the streets leave out (a letter being typed) hold
  // in most of their addresses, and the index finds the first of them sooner.
  if (narrowing.length === 0 || !numbers.some(({ prefix }) => !prefix)) return undefined;
  const streets = rows(
    statement(`select s.street, s.addresses from street_search cross join street s on s.street = street_search.rowid
      where street_search match ? limit ${MOST_STREET_ADDRESSES + 1}`),
    ftsTier(narrowing, undefined, terms) + filters,
  );
  // Every street has an address: more streets than addresses allowed stop the list early.
  if (streets.reduce((sum, { addresses }) => sum + Number(addresses), 0) > MOST_STREET_ADDRESSES) return undefined;
  if (streets.length === 0) return [];
  const list = JSON.stringify(streets.map(({ street }) => street));
  // Each word the street left out is in the address when its street holds it (found among
  // these streets only) or its house or box number does.
  const checks = numbers.flatMap(({ word, prefix }) => {
    const holding = rows(
      statement(`select rowid as street from street_search where street_search match ?
        and rowid in (select value from json_each(?))`),
      ftsTier([{ word, prefix }], undefined, terms),
      list,
    ).map(({ street }) => street);
    return [JSON.stringify(holding), prefix ? ` ${word}` : ` ${word} `];
  });
  const check = numbers.map(() => 'and (sa.street in (select value from json_each(?)) or instr(sa.house, ?) > 0)');
  return rows(
    statement(`select a.* from street_address sa cross join address a on a.seq = sa.seq
      where sa.street in (select value from json_each(?)) ${check.join(' ')} order by sa.seq limit ?`),
    list,
    ...checks,
    wanted,
  );
}
