// How a PostgreSQL reference table becomes searchable: a tsvector per row over the
// 'simple' configuration of folded text (so no stemming and no extension: prefixes of any
// word match, accents never matter) with a GIN index. Each data set's indexes
// (`*-indexes.repository.ts`) build their search tables with these.

/**
 * A search reads a page and stops; the planner, estimating its tiers large, would share
 * them out to parallel workers, and starting those cost more than the search (a typing
 * search's p99 142 -> 43 ms at full scale without them).
 */
export const serial = (table: string) => `alter table ${table} set (parallel_workers = 0)`;

/**
 * The words of a text as search-text.ts splits a query: runs of letters and digits,
 * folded. Left to itself, PostgreSQL's parser keeps "petrol/electric" whole as a file
 * path and "id.3" as a host name, and a search for "petrol" would never find them.
 */
export const words = (f: string, text: string) =>
  `to_tsvector('simple', regexp_replace(${f}(${text}), '[^[:alnum:]]+', ' ', 'g'))`;
