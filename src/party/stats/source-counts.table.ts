// The sums behind where leads come from (docs/design.md section 13; the migration
// 2026-11-29T04-00_source_counts.ts says what each column holds).
import type { REACTED } from './reaction-buckets.ts';

/** One Brussels day or week of one source: the pushes received then, and what became of the leads they created. */
export type SourceCountTable = {
  distribution_id: string;
  /** 'day', or 'week' for the sums of a week from Monday to Sunday. */
  span: 'day' | 'week';
  /** The day, or the week's Monday (Brussels days). */
  day: string;
  kind: 'origin' | 'sender';
  /** The origin ('' for none) or the sender (`token:<id>`, `client:<id>`; `user:<id>` for pushes logged before the client was kept). */
  name: string;
  received: number;
  created: number;
  merged: number;
  contacted: number;
  quoted: number;
  won: number;
  lost: number;
} & { [column in (typeof REACTED)[number]]: number };
