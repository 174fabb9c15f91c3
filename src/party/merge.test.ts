import { describe, expect, it } from 'vitest';
import { addressKey, customerMatchKey, mergeFields } from './merge.ts';

describe('mergeFields (docs/design.md rule 6)', () => {
  it('overwrites present fields, keeps absent ones and clears nulls', () => {
    const { merged, changed } = mergeFields({ a: 1, b: 2, c: 3 }, { a: 10, c: null });
    expect(merged).toEqual({ a: 10, b: 2 });
    expect(changed).toBe(true);
  });

  it('reports no change for the same data in another key order, or for clearing what is absent', () => {
    expect(mergeFields({ a: { x: 1, y: 2 } }, { a: { y: 2, x: 1 } }).changed).toBe(false);
    expect(mergeFields({ a: 1 }, { b: null }).changed).toBe(false);
  });

  it('replaces a nested object as a whole', () => {
    expect(mergeFields({ address: { city: 'Gent', street: 'A' } }, { address: { city: 'Gent' } }).merged)
      .toEqual({ address: { city: 'Gent' } });
  });
});

describe('customerMatchKey (rule 1)', () => {
  const address = { street: 'Kerkstraat', housenr: '12', zipcode: '2000', city: 'Antwerpen' };

  it('needs email, birth and address all present', () => {
    expect(customerMatchKey({ email: 'a@b.be', birth: '1990-01-01' })).toBeNull();
    expect(customerMatchKey({ email: 'a@b.be', address })).toBeNull();
    expect(customerMatchKey({ email: 'a@b.be', birth: '1990-01-01', address })).not.toBeNull();
  });

  it('ignores the case of the email and the spelling of the address parts', () => {
    const a = customerMatchKey({ email: 'Jan@Example.be', birth: '1990-01-01', address });
    const b = customerMatchKey({
      email: ' jan@example.BE', birth: '1990-01-01',
      address: { street: ' KERKSTRAAT', housenr: '12', zipcode: '2000', city: 'antwerpen', country_code: 'BE' },
    });
    expect(a).toBe(b);
  });

  it('tells different addresses apart', () => {
    expect(addressKey(address)).not.toBe(addressKey({ ...address, boxnr: '3' }));
    expect(addressKey({ ...address, zipcode: '1234 AB', country_code: 'NL' })).toBe(addressKey({ ...address, zipcode: '1234AB', country_code: 'NL' }));
  });
});
