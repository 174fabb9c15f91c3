// Where leads come from, summed (docs/design.md section 16): per origin and per sender, the
// pushes received (created and merged), the leads created by the status they have now, the
// win rate (won of created) and the median hours to the first status change; and per week
// (Monday to Sunday, UTC days) the pushes received and the leads created then that are won
// now. A pure function of the repository's rows, so unit tests reach it.
import type { CreatedLeadRow, PushCountRow, ReactionRow } from './source-stats.repository.ts';

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

const empty = (): SourceCounts => ({
  received: 0,
  created: 0,
  merged: 0,
  contacted: 0,
  quoted: 0,
  won: 0,
  lost: 0,
  win_rate: null,
  median_hours_to_first_status: null,
});

export function summarize(
  period: { from: string; to: string },
  pushes: readonly PushCountRow[],
  created: readonly CreatedLeadRow[],
  reactions: readonly ReactionRow[],
): SourceStats {
  const origins = new Map<string | null, SourceCounts>();
  const senders = new Map<string, SourceCounts>();
  const hours = new Map<string, number[]>();
  const of = <K>(map: Map<K, SourceCounts>, key: K) => {
    const counts = map.get(key) ?? empty();
    map.set(key, counts);
    return counts;
  };
  const weeks = new Map<string, { received: number; won: number }>();
  for (let week = mondayOf(period.from); week <= period.to; week = addDays(week, 7))
    weeks.set(week, { received: 0, won: 0 });
  for (const row of pushes) {
    const n = Number(row.pushes);
    for (const counts of [of(origins, row.origin), of(senders, row.caller)]) {
      counts.received += n;
      if (Number(row.status) === 201) counts.created += n;
      else counts.merged += n;
    }
    weeks.get(mondayOf(row.day))!.received += n;
  }
  for (const row of created) {
    if (row.status === 'new') continue;
    const n = Number(row.leads);
    for (const counts of [of(origins, row.origin), of(senders, row.caller)]) counts[row.status] += n;
    if (row.status === 'won') weeks.get(mondayOf(row.day))!.won += n;
  }
  for (const row of reactions) {
    for (const key of [`o:${row.origin}`, `s:${row.caller}`]) {
      const list = hours.get(key) ?? [];
      list.push(Number(row.hours));
      hours.set(key, list);
    }
  }
  const finish = (counts: SourceCounts, key: string): SourceCounts => ({
    ...counts,
    win_rate: counts.created === 0 ? null : Math.round((counts.won / counts.created) * 10_000) / 10_000,
    median_hours_to_first_status: median(hours.get(key) ?? []),
  });
  const byReceived = (a: SourceCounts, b: SourceCounts) => b.received - a.received;
  return {
    from: period.from,
    to: period.to,
    origins: [...origins]
      .map(([origin, counts]) => ({ origin, ...finish(counts, `o:${origin}`) }))
      .sort((a, b) => byReceived(a, b) || String(a.origin).localeCompare(String(b.origin))),
    senders: [...senders]
      .map(([sender, counts]) => ({ sender, ...finish(counts, `s:${sender}`) }))
      .sort((a, b) => byReceived(a, b) || a.sender.localeCompare(b.sender)),
    weeks: [...weeks].map(([week, counts]) => ({ week, ...counts })),
  };
}

/** The middle value (the mean of the two middle ones for an even count), to a tenth of an hour. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  const value = sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  return Math.round(value * 10) / 10;
}

/** The Monday of a day's week (ISO 8601), as YYYY-MM-DD. */
export function mondayOf(day: string): string {
  return addDays(day, -((new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7));
}

export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}
