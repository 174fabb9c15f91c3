// How free text becomes search terms, the same way on both databases: case and accents
// never matter (DESIGN.md section 6), words are runs of letters and digits, as SQLite's
// unicode61 tokenizer (remove_diacritics 2) splits them, so a folded query word is
// exactly what FTS5 indexed.

/** Lower case without accents: "Liège" -> "liege". */
export function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase();
}

/** At most this many words of a query count: more only narrows what is already precise. */
export const MAX_QUERY_WORDS = 8;

/** The folded words of a query, in order, duplicates dropped. */
export function queryWords(text: string): string[] {
  const words = fold(text).match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words)].slice(0, MAX_QUERY_WORDS);
}

/**
 * An FTS5 MATCH expression where every word is a prefix, and an exact word also counts as
 * itself, so bm25 puts "16" before "160" and "loi" before "loisirs". Words are letters and
 * digits only, so quoting them is enough to keep FTS5 syntax out.
 */
export function ftsPrefixQuery(words: readonly string[], column?: string): string {
  const scope = column ? `${column} : ` : '';
  return words.map((word) => `${scope}("${word}" OR "${word}"*)`).join(' AND ');
}

/** A PostgreSQL to_tsquery text over the 'simple' configuration, each word a prefix. */
export function tsPrefixQuery(words: readonly string[]): string {
  return words.map((word) => `${word}:*`).join(' & ');
}
