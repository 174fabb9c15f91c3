// The words a lead is found by in the broker's inbox, and the terms a search becomes
// (docs/design.md section 13): folded as the reference searches fold text, each word once,
// telephone and enterprise numbers also by their digits however they were typed.
import { describe, expect, it } from 'vitest';
import { policy, push, storedAfter, VIN_1 } from '../push/merge-fixtures.ts';
import { ftsMatch, searchTermsOf, searchWordsOf, tsQuery } from './search-words.ts';

describe('searchWordsOf', () => {
  it('holds the words of the names, e-mail, telephone, address, refs and VINs, folded, each once', () => {
    const lead = storedAfter(
      push({
        first_name: 'Élise',
        last_name: "D'Hondt-Peeters",
        email: 'elise.peeters@example.be',
        telephonenr: '+32 9 123 45 67',
        address: { street: 'Kerkstraat', zipcode: '9000', city: 'Gent' },
        external_refs: [{ external_ref: 'CRM-42', external_ref_company: 'ACME' }],
        risk_objects: { cars: [{ vin: VIN_1 }] },
        insurance_policies: [policy({}, ['POL-7'])],
      }),
    );
    expect(searchWordsOf(lead).split(' ')).toEqual([
      'elise',
      'd',
      'hondt',
      'peeters',
      'example',
      'be',
      '32',
      '9',
      '123',
      '45',
      '67',
      'kerkstraat',
      '9000',
      'gent',
      'crm',
      '42',
      'pol',
      '7',
      'wvwzzz1jzxw000001',
      // The telephone number by its digits, international and national.
      '3291234567',
      '091234567',
    ]);
  });
});

describe('searchTermsOf', () => {
  it('has no terms for a search without a word', () => {
    expect(searchTermsOf('')).toBeUndefined();
    expect(searchTermsOf(' -/ ')).toBeUndefined();
  });

  it('takes every word as a prefix, folded', () => {
    expect(searchTermsOf('Élise  gent')).toEqual({ words: ['elise', 'gent'], numbers: [] });
  });

  it('reads a telephone number by its digits, however it is written', () => {
    expect(searchTermsOf('+32 (9) 123.45.67')?.numbers).toEqual(['3291234567']);
    expect(searchTermsOf('0032 9 123 45 67')?.numbers).toContain('3291234567');
  });

  it('reads an enterprise number by its ten digits', () => {
    expect(searchTermsOf('BE 0403.170.701')?.numbers).toEqual(['0403170701']);
  });

  it('writes the terms as an FTS5 MATCH and a to_tsquery text: all words, or any number', () => {
    const terms = { words: ['peet', 'gent'], numbers: ['0403170701'] };
    expect(ftsMatch(terms)).toBe('("peet"* AND "gent"*) OR "0403170701"*');
    expect(tsQuery(terms)).toBe('(peet:* & gent:*) | 0403170701:*');
  });
});
