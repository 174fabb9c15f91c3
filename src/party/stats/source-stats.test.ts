import { describe, expect, it } from 'vitest';
import { median, mondayOf, summarize } from './source-stats.ts';

describe('summarize', () => {
  it('counts pushes per origin and sender, leads by their status now, win rate and median hours, and weeks', () => {
    const stats = summarize(
      { from: '2026-11-02', to: '2026-11-15' },
      [
        { day: '2026-11-02', origin: 'web', caller: 'token:a', status: 201, pushes: '3' },
        { day: '2026-11-03', origin: 'web', caller: 'token:a', status: 200, pushes: 1 },
        { day: '2026-11-10', origin: 'portal', caller: 'user:b', status: 201, pushes: 1 },
      ],
      [
        { day: '2026-11-02', origin: 'web', caller: 'token:a', status: 'won', leads: 1 },
        { day: '2026-11-02', origin: 'web', caller: 'token:a', status: 'lost', leads: 1 },
        { day: '2026-11-02', origin: 'web', caller: 'token:a', status: 'new', leads: 1 },
        { day: '2026-11-10', origin: 'portal', caller: 'user:b', status: 'won', leads: '1' },
      ],
      [
        { origin: 'web', caller: 'token:a', hours: 2 },
        { origin: 'web', caller: 'token:a', hours: '5' },
        { origin: 'portal', caller: 'user:b', hours: 30.04 },
      ],
    );
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
      median_hours_to_first_status: 3.5,
    });
    expect(stats.senders.map((s) => [s.sender, s.win_rate, s.median_hours_to_first_status])).toEqual([
      ['token:a', 0.3333, 3.5],
      ['user:b', 1, 30],
    ]);
    expect(stats.weeks).toEqual([
      { week: '2026-11-02', received: 4, won: 1 },
      { week: '2026-11-09', received: 1, won: 1 },
    ]);
  });

  it('says null where there is nothing to divide or take the middle of', () => {
    const stats = summarize({ from: '2026-11-04', to: '2026-11-04' }, [], [], []);
    expect(stats).toEqual({
      from: '2026-11-04',
      to: '2026-11-04',
      origins: [],
      senders: [],
      weeks: [{ week: '2026-11-02', received: 0, won: 0 }],
    });
    expect(median([])).toBeNull();
    expect(median([4, 1, 9])).toBe(4);
    expect(mondayOf('2026-11-29')).toBe('2026-11-23');
    expect(mondayOf('2026-11-30')).toBe('2026-11-30');
  });
});
