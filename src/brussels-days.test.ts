import { describe, expect, it } from 'vitest';
import { addDays, brusselsDay, brusselsMidnight, isDay, mondayOf } from './brussels-days.ts';

const HOUR = 3_600_000;

describe('Brussels days', () => {
  it('start at midnight Brussels time, an hour before UTC in winter and two in summer', () => {
    expect(brusselsMidnight('2026-11-28')).toBe('2026-11-27T23:00:00.000Z');
    expect(brusselsMidnight('2026-07-01')).toBe('2026-06-30T22:00:00.000Z');
    expect(brusselsMidnight('2026-03-29')).toBe('2026-03-28T23:00:00.000Z');
    expect(brusselsMidnight('2026-03-30')).toBe('2026-03-29T22:00:00.000Z');
    expect(brusselsDay(Date.parse('2026-11-27T23:30:00Z'))).toBe('2026-11-28');
    expect(brusselsDay(Date.parse('2026-10-25T00:59:00Z'))).toBe('2026-10-25');
  });

  // Summer time starts on the last Sunday of March (02:00 CET becomes 03:00 CEST, at 01:00
  // UTC) and ends on the last Sunday of October (03:00 CEST becomes 02:00 CET).
  it('last 23 hours on the last Sunday of March and 25 on the last Sunday of October', () => {
    const hours = (day: string) =>
      (Date.parse(brusselsMidnight(addDays(day, 1))) - Date.parse(brusselsMidnight(day))) / HOUR;
    expect(hours('2026-03-28')).toBe(24);
    expect(hours('2026-03-29')).toBe(23);
    expect(hours('2026-03-30')).toBe(24);
    expect(hours('2026-10-24')).toBe(24);
    expect(hours('2026-10-25')).toBe(25);
    expect(hours('2026-10-26')).toBe(24);
    expect(brusselsMidnight('2026-10-25')).toBe('2026-10-24T22:00:00.000Z');
    expect(brusselsMidnight('2026-10-26')).toBe('2026-10-25T23:00:00.000Z');
  });

  it('turn at midnight on both sides of a change of the clocks, to the millisecond', () => {
    const day = (iso: string) => brusselsDay(Date.parse(iso));
    // March: midnight before the change is at 23:00 UTC, after it at 22:00 UTC.
    expect(day('2026-03-28T22:59:59.999Z')).toBe('2026-03-28');
    expect(day('2026-03-28T23:00:00.000Z')).toBe('2026-03-29');
    expect(day('2026-03-29T21:59:59.999Z')).toBe('2026-03-29');
    expect(day('2026-03-29T22:00:00.000Z')).toBe('2026-03-30');
    // October: midnight before the change is at 22:00 UTC, after it at 23:00 UTC.
    expect(day('2026-10-24T21:59:59.999Z')).toBe('2026-10-24');
    expect(day('2026-10-24T22:00:00.000Z')).toBe('2026-10-25');
    expect(day('2026-10-25T22:59:59.999Z')).toBe('2026-10-25');
    expect(day('2026-10-25T23:00:00.000Z')).toBe('2026-10-26');
  });

  it('hold every instant of the hour from 02:00 to 03:00 that March skips and October repeats', () => {
    // Every minute from 00:00 to 04:00 UTC on both Sundays: each falls in the day it is
    // named after, between that day's midnight and the next.
    for (const sunday of ['2026-03-29', '2026-10-25'])
      for (let minute = 0; minute <= 4 * 60; minute++) {
        const instant = Date.parse(`${sunday}T00:00:00Z`) + minute * 60_000;
        expect(brusselsDay(instant)).toBe(sunday);
        expect(instant).toBeGreaterThanOrEqual(Date.parse(brusselsMidnight(sunday)));
        expect(instant).toBeLessThan(Date.parse(brusselsMidnight(addDays(sunday, 1))));
      }
  });

  it('count weeks from Monday and days across months and years', () => {
    expect(mondayOf('2026-11-29')).toBe('2026-11-23');
    expect(mondayOf('2026-11-30')).toBe('2026-11-30');
    expect(mondayOf('2027-01-01')).toBe('2026-12-28');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    // A day is 24 hours in UTC whatever the clocks in Brussels do.
    expect(addDays('2026-03-29', 1)).toBe('2026-03-30');
    expect(addDays('2026-10-25', 1)).toBe('2026-10-26');
  });
});

describe('isDay', () => {
  it('takes a day written YYYY-MM-DD that exists, and nothing else', () => {
    expect(isDay('2026-11-28')).toBe(true);
    expect(isDay('2024-02-29')).toBe(true);
    expect(isDay('2026-02-29')).toBe(false);
    expect(isDay('2026-02-30')).toBe(false);
    expect(isDay('2026-2-3')).toBe(false);
    expect(isDay('2026-11-28T00:00')).toBe(false);
    expect(isDay('')).toBe(false);
  });
});
