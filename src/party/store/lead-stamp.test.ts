import { describe, expect, it } from 'vitest';
import { stampAfter } from './lead-stamp.ts';

describe('stampAfter (a lead stamps strictly increase)', () => {
  it('keeps the clock when it is past the lead stamp, or the lead is new', () => {
    expect(stampAfter('2026-01-01T00:00:00.002Z', '2026-01-01T00:00:00.001Z')).toBe('2026-01-01T00:00:00.002Z');
    expect(stampAfter('2026-01-01T00:00:00.002Z', undefined)).toBe('2026-01-01T00:00:00.002Z');
  });

  it('stamps a millisecond after the lead when the clock shows the same millisecond or an earlier one', () => {
    expect(stampAfter('2026-01-01T00:00:00.001Z', '2026-01-01T00:00:00.001Z')).toBe('2026-01-01T00:00:00.002Z');
    expect(stampAfter('2026-01-01T00:00:00.000Z', '2026-12-31T23:59:59.999Z')).toBe('2027-01-01T00:00:00.000Z');
  });
});
