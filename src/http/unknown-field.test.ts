import { describe, expect, it } from 'vitest';
import { byCloseness, editDistance, isClose, unknownFieldProblem } from './unknown-field.ts';

const ADDRESS = ['street', 'housenr', 'boxnr', 'zipcode', 'city', 'country_code'];

describe('unknownFieldProblem', () => {
  it('suggests the close name: country for country_code', () => {
    expect(unknownFieldProblem('prospect.address.country', 'country', ADDRESS)).toEqual({
      target: 'prospect.address.country',
      code: 'field_not_allowed_suggestion',
      params: { suggestions: "'country_code'" },
    });
  });

  it('suggests several close names, closest first', () => {
    expect(unknownFieldProblem('x', 'box', ['boxnr', 'box_nr', 'city']).params).toEqual({
      suggestions: "'boxnr' or 'box_nr'",
    });
  });

  it('lists every allowed name, closest first, when none is close', () => {
    expect(unknownFieldProblem('cars.0.color', 'color', ['id', 'vin', 'brand', 'model'])).toEqual({
      target: 'cars.0.color',
      code: 'field_not_allowed_listed',
      params: { allowed: 'model, id, vin, brand' },
    });
  });

  it('says only "not allowed" where nothing is', () => {
    expect(unknownFieldProblem('x', 'x', [])).toEqual({ target: 'x', code: 'field_not_allowed' });
  });
});

describe('closeness', () => {
  it('reads a name inside another, a typo and a swap as close, unrelated names as not', () => {
    expect(isClose('country', 'country_code')).toBe(true);
    expect(isClose('housenumber', 'housenr')).toBe(true);
    expect(isClose('zip', 'zipcode')).toBe(true);
    expect(isClose('frist_name', 'first_name')).toBe(true);
    expect(isClose('FirstName', 'first_name')).toBe(true);
    expect(isClose('country', 'city')).toBe(false);
    expect(isClose('nickname', 'last_name')).toBe(false);
    expect(isClose('id', 'vin')).toBe(false);
  });

  it('orders close names before the rest, then by edit distance', () => {
    expect(byCloseness('country', ADDRESS)[0]).toBe('country_code');
    expect(byCloseness('strete', ADDRESS)[0]).toBe('street');
  });

  it('counts edits, a swap as one', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('ab', 'ba')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
  });
});
