// The buckets of hours in which where-leads-come-from counts leads' first status changes
// (docs/design.md section 13): a leaf module, shared by the table's type, its SQL and the sums.

/**
 * Upper bounds (hours, exclusive) of the buckets a lead's first status change is counted in;
 * the last bucket, from 720 hours on, has none. The median is read from these counts, within
 * its bucket by linear interpolation: exact to a fraction of its bucket's width (5 minutes
 * under half an hour, then a quarter to a third of the hours). The migration
 * 2026-11-29T04-00_source_counts.ts keeps a copy (its trigger).
 */
export const REACTION_BOUNDS = [
  5 / 60,
  10 / 60,
  15 / 60,
  20 / 60,
  0.5,
  0.75,
  1,
  1.5,
  2,
  3,
  4,
  6,
  8,
  10,
  12,
  16,
  20,
  24,
  30,
  36,
  48,
  60,
  72,
  96,
  120,
  168,
  240,
  336,
  504,
  720,
] as const;

/** The columns of the buckets, `reacted_00` to `reacted_30`. */
export const REACTED = Array.from(
  { length: REACTION_BOUNDS.length + 1 },
  (_, i) => `reacted_${String(i).padStart(2, '0')}` as const,
);
