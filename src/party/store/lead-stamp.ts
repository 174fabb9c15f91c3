// A lead's stamps (docs/design.md section 2, rule 6): the write's clock comes from
// change-clock.repository.ts, and a lead's `updated_at` only ever moves forward.

/**
 * A lead's stamps strictly increase with each change: two writes to one lead in the same
 * millisecond (SQLite's group commit runs them in one transaction) would otherwise share a
 * stamp, and what is ordered by the time it was added (refs, callbacks) would fall back
 * to text order across the two. One millisecond past the stored stamp is still held back
 * by the listing's horizon until every writer that began before it has committed.
 */
export function stampAfter(now: string, previous: string | undefined): string {
  if (previous === undefined || now > previous) return now;
  return new Date(Date.parse(previous) + 1).toISOString();
}
