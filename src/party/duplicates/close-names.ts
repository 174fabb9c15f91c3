// Whether two folded names are close enough to be one person's (docs/api.md, "Possible duplicates"):
// at most two edits apart, an edit being a letter added, removed or replaced, or two
// neighbouring letters swapped (a typing slip is one edit, not two), with first and last
// name in either order (`Jan Peeters` and `Peeters Jan` are one name).

export const MAX_NAME_EDITS = 2;

/** True when `a` and `b` (folded `first last` names) are within MAX_NAME_EDITS of each other. */
export function closeNames(a: string, b: string): boolean {
  if (a === '' || b === '') return false;
  // Most names a shared birth key brings are far apart (at a million parties some six a
  // look-up, docs/benchmarks.md, "Possible duplicates"): their letters tell at once, for
  // either order of the words, before any table of edits is filled.
  if (!lettersWithin(a, b, 2 * MAX_NAME_EDITS)) return false;
  return editsWithin(a, b, MAX_NAME_EDITS) || editsWithin(a, swapped(b), MAX_NAME_EDITS);
}

/** Counts per UTF-16 code unit, zero between calls: lettersWithin's scratch. */
const letterCounts = new Int32Array(65536);

/**
 * Whether the letters of `a` and `b`, counted, differ by at most `limit`: a replacement
 * changes two counts by one, an addition or a removal one, a swap none, so names `n` edits
 * apart differ by at most 2n. The same letters in another order count the same.
 */
export function lettersWithin(a: string, b: string, limit: number): boolean {
  for (let i = 0; i < a.length; i++) letterCounts[a.charCodeAt(i)]!++;
  for (let i = 0; i < b.length; i++) letterCounts[b.charCodeAt(i)]!--;
  let difference = 0;
  // Every code counted is read back once and zeroed, so the scratch is clean for the next call.
  for (const text of [a, b])
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      difference += Math.abs(letterCounts[code]!);
      letterCounts[code] = 0;
    }
  return difference <= limit;
}

/** `jan peeters` -> `peeters jan`: the first word last. */
function swapped(name: string): string {
  const space = name.indexOf(' ');
  return space < 0 ? name : `${name.slice(space + 1)} ${name.slice(0, space)}`;
}

/**
 * The optimal string alignment distance of `a` and `b` is at most `limit`. Rows stop as
 * soon as every cell is over the limit, so two different names cost a few rows, not the
 * whole table.
 */
export function editsWithin(a: string, b: string, limit: number): boolean {
  if (Math.abs(a.length - b.length) > limit) return false;
  if (a === b) return true;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let cell = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) cell = Math.min(cell, before[j - 2]! + 1);
      current.push(cell);
      best = Math.min(best, cell);
    }
    if (best > limit) return false;
    before = previous;
    previous = current;
  }
  return previous[b.length]! <= limit;
}
