import { describe, expect, it } from 'vitest';
import { REACTED } from './reaction-buckets.ts';
import type { SourceCountRow } from './source-counts.repository.ts';
import { mondayOf } from '../../brussels-days.ts';
import { histogramMedian, summarize } from './source-stats.ts';

/** A row of sums with the counts given, the others 0; `reacted` by bucket number. */
function row(
  week: string,
  kind: 'origin' | 'sender',
  name: string,
  counts: Partial<Record<'received' | 'created' | 'merged' | 'contacted' | 'quoted' | 'won' | 'lost', number | string>>,
  reacted: Record<number, number> = {},
): SourceCountRow {
  const base: Record<string, number | string> = {
    received: 0,
    created: 0,
    merged: 0,
    contacted: 0,
    quoted: 0,
    won: 0,
    lost: 0,
  };
  REACTED.forEach((column, i) => {
    base[column] = reacted[i] ?? 0;
  });
  return { week, kind, name, ...base, ...counts } as SourceCountRow;
}

describe('summarize', () => {
  it('sums per origin and sender, with the win rate, the median from the buckets, and the weeks from the origins', () => {
    const stats = summarize({ from: '2026-11-02', to: '2026-11-15' }, [
      // Bucket 9 is [2, 3) hours, 11 is [4, 6): one lead in each, the median between them.
      row('2026-11-02', 'origin', 'web', { received: '4', created: 3, merged: 1, won: 1, lost: 1 }, { 9: 1, 11: 1 }),
      row('2026-11-02', 'sender', 'token:a', { received: 4, created: 3, merged: 1, won: 1, lost: 1 }, { 9: 1, 11: 1 }),
      row('2026-11-09', 'origin', '', { received: 1, created: 1, won: 1 }, { 19: 1 }),
      row('2026-11-09', 'sender', 'user:b', { received: 1, created: 1, won: 1 }, { 19: 1 }),
    ]);
    expect(stats.origins[0]).toEqual({
      origin: 'web',
      received: 4,
      created: 3,
      merged: 1,
      contacted: 0,
      quoted: 0,
      won: 1,
      lost: 1,
      win_rate: 0.3333,
      median_hours_to_first_status: 3.8,
    });
    // No origin is null; one lead in [30, 36) hours sits in its middle.
    expect(stats.origins[1]).toMatchObject({ origin: null, win_rate: 1, median_hours_to_first_status: 33 });
    expect(stats.senders.map((s) => [s.sender, s.win_rate, s.median_hours_to_first_status])).toEqual([
      ['token:a', 0.3333, 3.8],
      ['user:b', 1, 33],
    ]);
    expect(stats.weeks).toEqual([
      { week: '2026-11-02', received: 4, won: 1 },
      { week: '2026-11-09', received: 1, won: 1 },
    ]);
  });

  it('says null where there is nothing to divide or take the middle of', () => {
    const stats = summarize({ from: '2026-11-04', to: '2026-11-04' }, []);
    expect(stats).toEqual({
      from: '2026-11-04',
      to: '2026-11-04',
      origins: [],
      senders: [],
      weeks: [{ week: '2026-11-02', received: 0, won: 0 }],
    });
    expect(histogramMedian(REACTED.map(() => 0))).toBeNull();
    expect(mondayOf('2026-11-29')).toBe('2026-11-23');
    expect(mondayOf('2026-11-30')).toBe('2026-11-30');
  });
});

describe('histogramMedian', () => {
  const counts = (buckets: Record<number, number>) => REACTED.map((_, i) => buckets[i] ?? 0);
  it('places the values evenly within their bucket', () => {
    // Three leads within the first 5 minutes: the middle one at 2.5 minutes.
    expect(histogramMedian(counts({ 0: 3 }))).toBe(0);
    // Bucket 17 is [20, 24) hours: four leads at 20.5, 21.5, 22.5, 23.5; the median 22.
    expect(histogramMedian(counts({ 17: 4 }))).toBe(22);
    // The last bucket has no end: its values count as 720 hours.
    expect(histogramMedian(counts({ 30: 1 }))).toBe(720);
  });
});
