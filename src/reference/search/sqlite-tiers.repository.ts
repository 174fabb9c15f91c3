// A search over a SQLite reference file's FTS5 tables, as ranked tiers (search-tiers.ts).
import type { StatementSync } from 'node:sqlite';
import { rows, type Statements } from '../store/reference-file.repository.ts';
import type { Page, Row } from '../store/rows.ts';
import type { PrefixTerms, Tier } from './search-tiers.ts';
import { LONGEST_INDEXED_PREFIX } from './sqlite-fts.repository.ts';

/**
 * The rows of a page over ranked tiers (search-tiers.ts): each tier's match stops at the
 * rows needed so far, rows an earlier tier found are skipped. A tier is one statement
 * returning whole rows, not one statement a row: a page of addresses read row by row spent
 * more in the calls than in the search. `run` gives a tier's first `wanted` rows.
 */
export function tiered(
  tiers: readonly Tier[],
  run: (tier: Tier, wanted: number) => Row[],
  page: Page,
  key: string,
): Row[] {
  if (tiers.length === 0) return [];
  const wanted = page.offset + page.limit;
  const seen = new Set<unknown>();
  const found: Row[] = [];
  const add = (hits: readonly Row[]): void => {
    for (const hit of hits) {
      if (seen.has(hit[key])) continue;
      seen.add(hit[key]);
      found.push(hit);
    }
  };
  const first = run(tiers[0]!, wanted);
  add(first);
  if (tiers.length === 3 && first.length > 0 && first.length < wanted) {
    // The three tiers nest (search-tiers.ts: a row of one matches every later one). When
    // the first finds some rows but not a page, as a precise address does ("rue de la
    // station 24 schaerbeek"), the broadest runs next: if it finds no more rows than the
    // first, and not a page, the middle one can only find those same rows and is left out,
    // a third of the search saved. When the first finds nothing, a word is being typed and
    // the middle tier usually fills the page alone: the tiers run in order.
    const broadest = run(tiers[2]!, wanted);
    if (broadest.length >= wanted || broadest.length > first.length) add(run(tiers[1]!, wanted));
    add(broadest);
  } else {
    for (const tier of tiers.slice(1)) {
      if (found.length >= wanted) break;
      add(run(tier, wanted));
    }
  }
  return found.slice(page.offset, wanted);
}

/** A tier run as one FTS5 MATCH: `statement` takes the match, then `filters`, then the number of rows wanted. */
export const matching =
  (statement: StatementSync | undefined, match: (tier: Tier) => string, filters: readonly (string | number)[] = []) =>
  (tier: Tier, wanted: number) =>
    rows(statement, match(tier), ...filters, wanted);

/** More whole terms than this and a long prefix stays a prefix query: the OR would cost more. */
const MOST_PREFIX_TERMS = 64;

/** The whole terms of `table` that prefixes too long for its prefix indexes stand for (one request's). */
export function prefixTerms(statement: Statements, table: string): PrefixTerms {
  const known = new Map<string, readonly string[] | undefined>();
  return (prefix) => {
    if (prefix.length <= LONGEST_INDEXED_PREFIX) return undefined;
    if (!known.has(prefix)) known.set(prefix, lookUp(prefix));
    return known.get(prefix);
  };
  function lookUp(prefix: string): readonly string[] | undefined {
    let list: StatementSync | undefined;
    try {
      list = statement(`select term from ${table}_term where term >= ? order by term limit ${MOST_PREFIX_TERMS + 1}`);
    } catch {
      return undefined; // a file imported before term lists were kept
    }
    const terms: string[] = [];
    for (const { term } of rows(list, prefix)) {
      if (!String(term).startsWith(prefix)) break;
      terms.push(String(term));
    }
    return terms.length > MOST_PREFIX_TERMS ? undefined : terms;
  }
}
