// Whether two folded names are close enough to be one person's (docs/api.md, "Possible duplicates"):
// at most two edits apart, an edit being a letter added, removed or replaced, or two
// neighbouring letters swapped (a typing slip is one edit, not two), with first and last
// name in either order (`Jan Peeters` and `Peeters Jan` are one name).

export const MAX_NAME_EDITS = 2;

/** True when `a` and `b` (folded `first last` names) are within MAX_NAME_EDITS of each other. */
export function closeNames(a: string, b: string): boolean {
  if (a === '' || b === '') return false;
  return editsWithin(a, b, MAX_NAME_EDITS) || editsWithin(a, swapped(b), MAX_NAME_EDITS);
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
