import { describe, expect, it } from 'vitest';
import { addressKey, customerMatchKey } from './match-key.ts';

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
      email: ' jan@example.BE',
      birth: '1990-01-01',
      address: { street: ' KERKSTRAAT', housenr: '12', zipcode: '2000', city: 'antwerpen', country_code: 'BE' },
    });
    expect(a).toBe(b);
  });

  it('tells different addresses apart', () => {
    expect(addressKey(address)).not.toBe(addressKey({ ...address, boxnr: '3' }));
    expect(addressKey({ ...address, zipcode: '1234 AB', country_code: 'NL' })).toBe(
      addressKey({ ...address, zipcode: '1234AB', country_code: 'NL' }),
    );
  });
});
