// The FTS5 search tables every SQLite reference file gets (contentless, diacritics folded
// by the unicode61 tokenizer, so "liege" finds "Liège"). Prefix indexes for 1 to 8
// characters: a prefix query without one merges the postings of every word with that
// prefix before the first row comes back; with one it reads a single list only as far as
// the page needs (measured 4-6x faster for "bakk* peet*" over 20k enterprises, for a fifth
// more index). Longer prefixes are searched as an OR of their whole terms
// (search-tiers.ts), which the `<table>_term` list of every longer indexed term gives.

/** The longest prefix FTS5 indexes; keep in step with `prefix=` below. */
export const LONGEST_INDEXED_PREFIX = 8;

export const FTS = `content='', detail=column, tokenize='unicode61 remove_diacritics 2', prefix='1 2 3 4 5 6 7 8'`;

/** The terms of an FTS table longer than its prefix indexes reach, in order, for prefix lookups. */
export const longTerms = (table: string) => [
  `create virtual table temp.${table}_vocab using fts5vocab(main, ${table}, 'row')`,
  `create table ${table}_term (term text primary key) without rowid`,
  `insert into ${table}_term select term from temp.${table}_vocab where length(term) > ${LONGEST_INDEXED_PREFIX}`,
  `drop table temp.${table}_vocab`,
];
