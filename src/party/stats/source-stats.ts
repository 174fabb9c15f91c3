// Where leads come from, summed (docs/design.md section 13): per origin and per sender, the
// pushes received (created and merged), the leads created by the status they have now, the
// win rate (won of created) and the median hours to the first status change; and per week
// (Monday to Sunday, Brussels days) the pushes received and the leads created then that are
// won now. A pure function of the repository's sums per week and source, so unit tests
// reach it.
import { addDays, mondayOf } from '../../brussels-days.ts';
import { REACTED, REACTION_BOUNDS } from './reaction-buckets.ts';
import type { SourceCountRow } from './source-counts.repository.ts';

export interface SourceCounts {
  received: number;
  created: number;
  merged: number;
  contacted: number;
  quoted: number;
  won: number;
  lost: number;
  win_rate: number | null;
  median_hours_to_first_status: number | null;
}

export interface SourceStats {
  readonly from: string;
  readonly to: string;
  readonly origins: Array<{ origin: string | null } & SourceCounts>;
  readonly senders: Array<{ sender: string } & SourceCounts>;
  readonly weeks: Array<{ week: string; received: number; won: number }>;
}

type Sums = Omit<SourceCounts, 'win_rate' | 'median_hours_to_first_status'> & { reacted: number[] };

const empty = (): Sums => ({
  received: 0,
  created: 0,
  merged: 0,
  contacted: 0,
  quoted: 0,
  won: 0,
  lost: 0,
  reacted: REACTED.map(() => 0),
});

const ADDED = ['received', 'created', 'merged', 'contacted', 'quoted', 'won', 'lost'] as const;

export function summarize(period: { from: string; to: string }, rows: readonly SourceCountRow[]): SourceStats {
  const origins = new Map<string, Sums>();
  const senders = new Map<string, Sums>();
  const weeks = new Map<string, { received: number; won: number }>();
  for (let week = mondayOf(period.from); week <= period.to; week = addDays(week, 7))
    weeks.set(week, { received: 0, won: 0 });
  for (const row of rows) {
    const map = row.kind === 'origin' ? origins : senders;
    const sums = map.get(row.name) ?? empty();
    map.set(row.name, sums);
    for (const count of ADDED) sums[count] += Number(row[count]);
    REACTED.forEach((column, i) => {
      sums.reacted[i]! += Number(row[column]);
    });
    // Each push is in one origin row and one sender row: the chart counts the origins'.
    const week = weeks.get(row.week);
    if (row.kind === 'origin' && week) {
      week.received += Number(row.received);
      week.won += Number(row.won);
    }
  }
  const finish = ({ reacted, ...counts }: Sums): SourceCounts => ({
    ...counts,
    win_rate: counts.created === 0 ? null : Math.round((counts.won / counts.created) * 10_000) / 10_000,
    median_hours_to_first_status: histogramMedian(reacted),
  });
  const byReceived = (a: SourceCounts, b: SourceCounts) => b.received - a.received;
  return {
    from: period.from,
    to: period.to,
    origins: [...origins]
      .map(([name, sums]) => ({ origin: name === '' ? null : name, ...finish(sums) }))
      .sort((a, b) => byReceived(a, b) || String(a.origin).localeCompare(String(b.origin))),
    senders: [...senders]
      .map(([sender, sums]) => ({ sender, ...finish(sums) }))
      .sort((a, b) => byReceived(a, b) || a.sender.localeCompare(b.sender)),
    weeks: [...weeks].map(([week, counts]) => ({ week, ...counts })),
  };
}

/**
 * The median of values counted per bucket of REACTION_BOUNDS (the mean of the two middle
 * ones for an even count), each value placed evenly within its bucket; to a tenth of an hour.
 */
export function histogramMedian(counts: readonly number[]): number | null {
  const total = counts.reduce((sum, n) => sum + n, 0);
  if (total === 0) return null;
  const nth = (rank: number) => {
    let before = 0;
    for (const [i, n] of counts.entries()) {
      if (rank < before + n) {
        const low = i === 0 ? 0 : REACTION_BOUNDS[i - 1]!;
        const high = REACTION_BOUNDS[i];
        return high === undefined ? low : low + ((high - low) * (rank - before + 0.5)) / n;
      }
      before += n;
    }
    return 0;
  };
  const value = total % 2 === 1 ? nth((total - 1) / 2) : (nth(total / 2 - 1) + nth(total / 2)) / 2;
  return Math.round(value * 10) / 10;
}
