// A search over a PostgreSQL reference table's GIN-indexed `doc`, as ranked tiers
// (search-tiers.ts), in one statement.
import { escapeLiteral } from 'pg';
import type { Page } from '../store/rows.ts';
import { gatheredWords, probeRows, type TermFrequencies } from './postgres-gin-words.ts';
import { searchTiers, type Tier, tsTier } from './search-tiers.ts';

/**
 * A search's text, a tsquery of folded words (search-tiers.ts), goes into the statement as
 * a literal, and so do its filters: how many rows a word matches decides the plan, and a
 * parameter would get the one generic plan our connections use (database.ts), which took
 * 38 ms for "rue" in 660,000 addresses instead of 0.3 ms. Without parameters the statement
 * is planned with its values every time.
 */
export interface SearchTier {
  /** The tier's words. */
  readonly words: Tier;
  readonly condition: string;
  readonly probeRows: number;
}

/** The pieces of one tier's part of the statement, for a data set that finds its rows another way too. */
export interface TierStatement {
  /** 1, 2 or 3: names the tier's CTEs (`p1`, `t1`, ...). */
  readonly tier: number;
  readonly key: string;
  readonly table: string;
  readonly wanted: number;
  /** The CTE of the probe (`p<tier>`). */
  readonly probe: string;
  /** True when the tier runs and its probe found too few rows. */
  readonly unprobed: string;
  /** The probe's rows, when they fill the page. */
  readonly fromProbe: string;
  /** The index's rows, when `when` (SQL after `and`) holds too. */
  fromIndex(when: string): string;
}

/** A tier's CTEs (the last one `t<tier>`, its keys and tier number), or undefined for probe and index alone. */
export type OtherWay<T extends SearchTier> = (search: T, statement: TierStatement) => string[] | undefined;

/**
 * The keys of a page over ranked tiers (search-tiers.ts) in one statement, so one
 * snapshot. A GIN index cannot stop early: it gathers every match before the first row
 * comes back (50 ns a match here: "rue", in a third of all addresses, would cost 100 ms at
 * full scale). So a tier of frequent words first reads the first rows of `table` in key
 * order (as many as its words' statistics say it needs, probeRows) and keeps the matches:
 * a word that frequent fills the page from them in a millisecond or so. Only when they are
 * too few does the tier ask the index, and then its words are rare enough for that to be
 * cheap. A tier with a word rarer than the statistics list asks the index at once.
 * A tier runs only when each tier before found fewer rows than the page needs (tiers nest:
 * a row of one matches every later one). The counts are uncorrelated subqueries:
 * PostgreSQL evaluates each once and skips a scan whose condition is false.
 * The index query's limit is a subquery, unknown to the planner: with the number itself it
 * would expect the few matches it estimates to come early in a plain scan of the table and
 * choose that scan, which for a rare word reads all six million rows (760 ms instead of 7).
 * Rows are ranked by their first tier, then by key. `tiers` holds each tier's condition on
 * a row of `table` (ginCondition) and its probe's size; `otherWay` may add a data set's own
 * way to a tier (an address search's streets, addresses/postgres-streets.repository.ts).
 */
export function tieredKeys<T extends SearchTier>(
  key: string,
  table: string,
  tiers: readonly T[],
  page: Page,
  otherWay?: OtherWay<T>,
): string {
  const wanted = page.offset + page.limit;
  const ctes = tiers.flatMap((search, index) => {
    const { condition, probeRows } = search;
    const tier = index + 1;
    const earlier =
      Array.from({ length: index }, (_, before) => `(select count(*) from t${before + 1}) < ${wanted}`).join(' and ') ||
      'true';
    const probed = probeRows > 0 ? `(select count(*) from p${tier})` : '0';
    const probe = `p${tier} as materialized (select ${key} from (select * from ${table} order by ${key} limit ${probeRows}) w
        where ${earlier} and ${probeRows} > 0 and ${condition} limit ${wanted})`;
    const unprobed = `${earlier} and ${probed} < ${wanted}`;
    const fromProbe = `select ${key}, ${tier} as tier from p${tier} where ${probed} >= ${wanted}`;
    const fromIndex = (when: string) => `select ${key}, ${tier} as tier from (select ${key} from ${table}
        where ${unprobed} ${when} and ${condition} limit (select ${wanted})) f`;
    return (
      otherWay?.(search, { tier, key, table, wanted, probe, unprobed, fromProbe, fromIndex }) ?? [
        probe,
        `t${tier} as materialized (${fromProbe} union all ${fromIndex('')})`,
      ]
    );
  });
  const all = tiers.map((_, index) => `select ${key}, tier from t${index + 1}`).join(' union all ');
  return `with ${ctes.join(', ')}
    select ${key}, min(tier) as tier from (${all}) tiers group by ${key}
    order by min(tier), ${key} limit ${page.limit} offset ${page.offset}`;
}

/** The tiers of a search over a GIN-indexed `doc`, each with `filters` (SQL after `and`). */
export function searchTiersOf(
  words: readonly string[],
  frequencies: TermFrequencies,
  page: Page,
  filters: string,
): SearchTier[] {
  return searchTiers(words).map((tier) => ({
    words: tier,
    condition: `${ginCondition('doc', tier, frequencies)} ${filters}`,
    probeRows: probeRows(tier, frequencies, page.offset + page.limit),
  }));
}

export const tsquery = (text: string) => `to_tsquery('simple', ${escapeLiteral(text)})`;

/**
 * The condition for one tier on a GIN-indexed tsvector `column`: the index gathers the words
 * postgres-gin-words.ts picks, and the whole tier is checked with ts_match_vq, the function
 * behind @@, which the planner does not give to the index.
 */
export function ginCondition(column: string, tier: Tier, frequencies: TermFrequencies): string {
  const gathered = gatheredWords(tier, frequencies);
  const indexed = `${column} @@ ${tsquery(tsTier(gathered))}`;
  return gathered.length === tier.length ? indexed : `${indexed} and ts_match_vq(${column}, ${tsquery(tsTier(tier))})`;
}
