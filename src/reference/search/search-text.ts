// How free text becomes search terms, the same way on both databases: case and accents
// never matter (docs/design.md section 6), words are runs of letters and digits, as SQLite's
// unicode61 tokenizer (remove_diacritics 2) splits them, so a folded query word is
// exactly what FTS5 indexed.

/** Lower case without accents: "Liège" -> "liege". */
export function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

/** At most this many words of a query count: more only narrows what is already precise. */
export const MAX_QUERY_WORDS = 8;

/** The folded words of a text, in order. */
export function textWords(text: string): string[] {
  return fold(text).match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** The folded words of a query, in order, duplicates dropped. */
export function queryWords(text: string): string[] {
  return [...new Set(textWords(text))].slice(0, MAX_QUERY_WORDS);
}
