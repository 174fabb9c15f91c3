// An unknown field is refused with the names allowed where it stands, closest first
// (docs/design.md section 16; docs/errors.md): a partner who sent `country` reads "did you
// mean 'country_code'?" instead of searching the reference for the right name.
import type { Problem } from '../errors.ts';

/** At most this many close names follow "did you mean". */
const MAX_SUGGESTIONS = 3;

/** The problem for `field` at `target`, given the names allowed beside it. */
export function unknownFieldProblem(target: string, field: string, allowed: readonly string[]): Problem {
  const ranked = byCloseness(field, allowed);
  const close = ranked.filter((name) => isClose(field, name)).slice(0, MAX_SUGGESTIONS);
  if (close.length > 0) {
    return { target, code: 'field_not_allowed_suggestion', params: { suggestions: quoted(close) } };
  }
  if (ranked.length > 0) return { target, code: 'field_not_allowed_listed', params: { allowed: ranked.join(', ') } };
  return { target, code: 'field_not_allowed' };
}

/** `'a'`, `'a' or 'b'`, `'a', 'b' or 'c'` */
function quoted(names: readonly string[]): string {
  const each = names.map((name) => `'${name}'`);
  return each.length === 1 ? (each[0] as string) : `${each.slice(0, -1).join(', ')} or ${each.at(-1)}`;
}

/** The allowed names, closest to `field` first (ties keep the schema's order). */
export function byCloseness(field: string, allowed: readonly string[]): string[] {
  const key = (name: string) => [isClose(field, name) ? 0 : 1, editDistance(fold(field), fold(name))] as const;
  return allowed
    .map((name, index) => ({ name, index, key: key(name) }))
    .sort((a, b) => a.key[0] - b.key[0] || a.key[1] - b.key[1] || a.index - b.index)
    .map(({ name }) => name);
}

/**
 * Close enough to suggest: a name that holds the other's letters in order with the same
 * first letter (`country` in `country_code`, `housenr` in `house_number`, `zip` in
 * `zipcode`), or one or two typing mistakes away (`frist_name`).
 */
export function isClose(field: string, name: string): boolean {
  const a = fold(field);
  const b = fold(name);
  if (a === b) return true;
  const [shorter, longer] = a.length <= b.length ? [a, b] : [b, a];
  if (shorter.length >= 3 && shorter[0] === longer[0] && isSubsequence(shorter, longer)) return true;
  return editDistance(a, b) <= (longer.length >= 6 ? 2 : 1);
}

/** Case and separators do not make two names different: `Country-Code` is `country_code`. */
function fold(name: string): string {
  return name.toLowerCase().replace(/[\s_-]/g, '');
}

function isSubsequence(shorter: string, longer: string): boolean {
  let at = 0;
  for (const char of longer) if (char === shorter[at]) at++;
  return at === shorter.length;
}

/** Levenshtein distance, with a swap of two neighbours counted as one edit. */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number) => rows[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, at(i - 2, j - 2) + 1);
      (rows[i] as number[])[j] = best;
    }
  }
  return at(a.length, b.length);
}
