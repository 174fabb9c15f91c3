/** The index of the first of `sorted` (by code unit) not before `word`; its length when none is. */
export function firstAtOrAfter(sorted: readonly string[], word: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (sorted[mid]! < word) low = mid + 1;
    else high = mid;
  }
  return low;
}
