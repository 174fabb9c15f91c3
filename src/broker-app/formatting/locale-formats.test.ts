import { describe, expect, it } from 'vitest';
import { decimalText, parseDecimal, sum } from './decimal.ts';
import { formatsFor } from './locale-formats.ts';

// Intl separates the amount from the euro sign with a no-break space: normalised here.
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

describe('exact decimals', () => {
  it('adds numeric text exactly, whatever floats would make of it', () => {
    expect(decimalText(sum([parseDecimal('0.1')!, parseDecimal('0.2')!]))).toBe('0.30');
    expect(decimalText(parseDecimal('999999999999999.999999')! * 12n)).toBe('11999999999999999.999988');
    expect(decimalText(parseDecimal('-0.05')!)).toBe('-0.05');
    expect(decimalText(parseDecimal('7')!)).toBe('7.00');
  });

  it('refuses what is not numeric text', () => {
    for (const bad of ['', '1e3', '1.2345678', 'abc', '1,5', null, undefined, {}])
      expect(parseDecimal(bad)).toBeUndefined();
  });
});

describe('formats per locale', () => {
  it('shows euros the way each language writes them, every decimal kept', () => {
    const amount = parseDecimal('1234.5')!;
    expect(plain(formatsFor('en-BE').money(amount))).toBe('€1,234.50');
    expect(plain(formatsFor('nl-BE').money(amount))).toBe('€ 1.234,50');
    expect(plain(formatsFor('fr-BE').money(amount))).toBe('1 234,50 €');
    expect(plain(formatsFor('de-BE').money(amount))).toBe('1.234,50 €');
    expect(plain(formatsFor('nl-BE').money(parseDecimal('0.123456')!))).toBe('€ 0,123456');
  });

  it('shows times in Brussels time and dates as the calendar date', () => {
    // 23:30 UTC on 31 December is already New Year in Brussels.
    expect(formatsFor('nl-BE').dateTime('2026-12-31T23:30:00.000Z')).toBe('1 jan 2027, 00:30');
    expect(formatsFor('en-GB').dateTime('2026-07-01T10:00:00.000Z')).toBe('1 Jul 2026, 12:00');
    expect(formatsFor('de-BE').date('1985-04-12')).toBe('12.04.1985');
    expect(formatsFor('fr-BE').date('1985-04-12')).toBe('12 avr. 1985');
  });
});
