import { describe, expect, it } from 'vitest';
import { checkVin, decodeVin, modelYears } from './vin.ts';

describe('VIN decoding (ISO 3779)', () => {
  it('checks the North American check digit (the 49 CFR 565 worked example)', () => {
    expect(decodeVin('1M8GDM9AXKP042788').check_digit).toEqual({ applies: true, valid: true });
    expect(decodeVin('1M8GDM9A1KP042788').check_digit).toEqual({ applies: true, valid: false });
  });

  it('does not apply the check digit to European VINs', () => {
    const decoded = decodeVin('WVWZZZ1KZAW000001');
    expect(decoded.check_digit).toEqual({ applies: false, valid: null });
    expect(decoded.manufacturer?.name).toBe('Volkswagen');
    expect(decoded.region).toBe('Europe');
    expect(decoded.country).toBe('Germany');
    expect(decoded.model_year).toEqual([1980, 2010]);
  });

  it('gives two model-year candidates and none for unused codes', () => {
    expect(modelYears('R')).toEqual([1994, 2024]);
    expect(modelYears('9')).toEqual([2009, 2039]);
    expect(modelYears('0')).toEqual([]);
  });

  it('finds countries by ISO 3780 ranges', () => {
    expect(decodeVin('VF1RFB00X66000001').country).toBe('France');
    expect(decodeVin('YV1XZ12345F000001').country).toBe('Sweden');
    expect(decodeVin('5YJ3E1EA7KF000001').country).toBe('United States');
    expect(decodeVin('TMBJJ7NE0L0000001').country).toBe('Czech Republic');
  });

  it('refuses a wrong length and I, O, Q', () => {
    expect(checkVin('WVWZZZ1KZAW00000')).toEqual({ problem: 'length' });
    expect(checkVin('WVWZZZ1KZAW00000I')).toEqual({ problem: 'characters' });
    expect(checkVin(' wvwzzz1kzaw000001 ')).toEqual({ vin: 'WVWZZZ1KZAW000001' });
  });
});
