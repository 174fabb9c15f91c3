import { describe, expect, it } from 'vitest';
import { arrayElementTexts } from './json-spans.ts';

describe('arrayElementTexts', () => {
  it('gives each element of the member as written: spacing, escapes and number forms kept', () => {
    const json = '{ "leads" : [ {"a": 1.50, "b": "x\\"]}," } ,\n\t{"c":[1,[2,{}]],"d":"\\u00e9"} ], "z": [9] }';
    expect(arrayElementTexts(json, 'leads')).toEqual([
      '{"a": 1.50, "b": "x\\"]}," }',
      '{"c":[1,[2,{}]],"d":"\\u00e9"}',
    ]);
    expect(arrayElementTexts(json, 'z')).toEqual(['9']);
  });

  it('finds the member only at the top level, takes the last of two, and an empty array has none', () => {
    expect(arrayElementTexts('{"x": {"leads": [1]}, "leads": [2]}', 'leads')).toEqual(['2']);
    expect(arrayElementTexts('{"leads": [1], "leads": [3, 4]}', 'leads')).toEqual(['3', '4']);
    expect(arrayElementTexts('{"leads": []}', 'leads')).toEqual([]);
    expect(arrayElementTexts('{"other": ["leads", [1]]}', 'leads')).toBeUndefined();
    expect(arrayElementTexts('{"k": "leads", "v": [1]}', 'leads')).toBeUndefined();
  });

  it('agrees with JSON.parse on every element', () => {
    const value = { leads: [{ type: 'CUSTOMER', prospect: { n: 'a,]}' } }, [1, 2], 'x', null, 3.25] };
    const json = JSON.stringify(value, null, 3);
    expect(arrayElementTexts(json, 'leads')!.map((text) => JSON.parse(text))).toEqual(value.leads);
  });
});
