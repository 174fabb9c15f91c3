// The keys a party is found by as a possible duplicate, and when a write changes them.
import { describe, expect, it } from 'vitest';
import { mergedAfter, push, storedAfter, VIN_1, VIN_2 } from '../push/merge-fixtures.ts';
import { birthKeys, changedDuplicateKeys, duplicateKeysOf, e164 } from './duplicate-keys.ts';

describe('duplicateKeysOf', () => {
  it('keeps the e-mail in lower case, the telephone in E.164, VINs, and the birth date with the start of each word of the folded name', () => {
    const lead = storedAfter(
      push({
        first_name: 'Élise',
        last_name: "D'Hondt",
        email: ' Elise.DHondt@Example.BE',
        telephonenr: '0470 12 34 56',
        birth: '1980-02-29',
        risk_objects: { cars: [{ vin: VIN_1 }, { vin: VIN_2 }] },
      }),
    );
    expect(duplicateKeysOf(lead)).toEqual([
      { kind: 'email', key: 'elise.dhondt@example.be', name: null },
      { kind: 'telephone', key: '+32470123456', name: null },
      { kind: 'birth', key: '1980-02-29|el', name: 'elise d hondt' },
      { kind: 'birth', key: '1980-02-29|d', name: 'elise d hondt' },
      { kind: 'birth', key: '1980-02-29|ho', name: 'elise d hondt' },
      { kind: 'vin', key: VIN_1, name: null },
      { kind: 'vin', key: VIN_2, name: null },
    ]);
  });

  it("keeps a company's enterprise number by its ten digits", () => {
    const lead = storedAfter(push({ enterprise_nr: 'BE 0200.065.765' }, {}, 'COMPANY'));
    expect(duplicateKeysOf(lead)).toEqual([{ kind: 'enterprise_nr', key: '0200065765', name: null }]);
  });

  it('has no key for what is missing, and no birth key without a name', () => {
    expect(duplicateKeysOf(storedAfter(push({})))).toEqual([]);
    expect(duplicateKeysOf(storedAfter(push({ telephonenr: '123' })))).toEqual([]);
  });
});

describe('birthKeys', () => {
  it('keys a birth date by the first two letters of each word, once each, so close names share one', () => {
    expect(birthKeys('1971-03-02', 'jan janssens').map((key) => key.key)).toEqual(['1971-03-02|ja']);
    const peeters = birthKeys('1971-03-02', 'jan peeters').map((key) => key.key);
    // A typo, and first and last name swapped: both still share a key with the original.
    for (const close of ['jan peters', 'peeters jna', 'peters jan'])
      expect(
        birthKeys('1971-03-02', close).some((key) => peeters.includes(key.key)),
        close,
      ).toBe(true);
    // Letters beyond the BMP count as one letter, as SQL's substr counts them.
    expect(birthKeys('1971-03-02', '𝒜𝒷c')[0]!.key).toBe('1971-03-02|𝒜𝒷');
  });
});

describe('e164', () => {
  it('reads a number without a country code as Belgian, and any written form of it alike', () => {
    for (const form of ['0470 12 34 56', '+32 470 123456', '0032470123456', '+32 (0)470/12.34.56'])
      expect(e164(form), form).toBe('+32470123456');
    expect(e164('+31 6 12345678')).toBe('+31612345678');
    expect(e164('not a number')).toBeUndefined();
  });
});

describe('changedDuplicateKeys', () => {
  it("is the whole set for a new party, nothing when a push changes none of them, the party's new set when one changes", () => {
    const first = push({ email: 'a@example.be', telephonenr: '0470 12 34 56' });
    expect(changedDuplicateKeys(undefined, storedAfter(first))).toHaveLength(2);

    const sameText = mergedAfter(first, push({ telephonenr: '0470 12 34 56', email: 'A@example.be' }));
    expect(changedDuplicateKeys(sameText.stored, sameText.lead)).toBeUndefined();

    // The stored number is not read again: a number written another way is written again, as the same key.
    const otherForm = mergedAfter(first, push({ telephonenr: '+32 470 123456' }));
    expect(changedDuplicateKeys(otherForm.stored, otherForm.lead)).toEqual([
      { kind: 'email', key: 'a@example.be', name: null },
      { kind: 'telephone', key: '+32470123456', name: null },
    ]);

    const unrelated = mergedAfter(first, push({ language: 'nl' }));
    expect(changedDuplicateKeys(unrelated.stored, unrelated.lead)).toBeUndefined();

    const car = mergedAfter(first, push({ risk_objects: { cars: [{ vin: VIN_1 }] } }));
    expect(changedDuplicateKeys(car.stored, car.lead)?.map((key) => key.kind)).toEqual(['email', 'telephone', 'vin']);

    const email = mergedAfter(first, push({ email: 'b@example.be' }));
    expect(changedDuplicateKeys(email.stored, email.lead)?.map((key) => key.key)).toEqual([
      'b@example.be',
      '+32470123456',
    ]);
  });
});
