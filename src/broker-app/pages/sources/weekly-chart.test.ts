import { describe, expect, it } from 'vitest';
import { axisTop, weeklyChart } from './weekly-chart.ts';

describe('weeklyChart', () => {
  it('rounds the axis up to 1, 2 or 5 times a power of ten', () => {
    expect([0, 1, 3, 7, 12, 20, 21, 480].map(axisTop)).toEqual([1, 1, 5, 10, 20, 20, 50, 500]);
  });

  it('draws a bar per week and count, as tall as its share of the axis, with its numbers in words', () => {
    const svg = weeklyChart(
      [
        { week: '2026-11-02', received: 10, won: 5 },
        { week: '2026-11-09', received: 0, won: 0 },
      ],
      { title: 'T', description: 'D', received: 'Received', won: 'Won', week: (day) => day },
    ).text;
    expect(svg.match(/<g>/g)).toHaveLength(2);
    expect(svg).toContain('<title>2026-11-02: Received 10, Won 5</title>');
    // The axis tops at 10: the received bar the plot's whole height (200), won half of it.
    expect(svg).toMatch(/<rect x="[\d.]+" y="12.0" width="[\d.]+" height="200.0" fill="#93c5fd">/);
    expect(svg).toMatch(/<rect x="[\d.]+" y="112.0" width="[\d.]+" height="100.0" fill="#065f46">/);
  });
});
