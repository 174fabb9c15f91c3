import { describe, expect, it } from 'vitest';
import { checkPayloadRules } from './payload-rules.ts';

const ID_A = '3f0c9a43-4f6e-4c9b-9a57-2f1d1c8b7e01';
const ID_B = '9b2e4f7a-1c3d-4e5f-8a6b-7c8d9e0f1a2b';

const withAddress = (address: object) => ({ prospect: { first_name: 'Jan', last_name: 'Peeters', address } });
const zipcodeOk = (zipcode: string, country_code?: string) =>
  checkPayloadRules(withAddress({ housenr: '1', city: 'X', zipcode, ...(country_code && { country_code }) })).length ===
  0;

describe('zipcode by country', () => {
  it('BE (the default): four digits, 1000-9999', () => {
    expect(zipcodeOk('9000')).toBe(true);
    expect(zipcodeOk('1000', 'BE')).toBe(true);
    expect(zipcodeOk('0999')).toBe(false);
    expect(zipcodeOk('900')).toBe(false);
    expect(zipcodeOk('90000')).toBe(false);
    expect(zipcodeOk('B-9000')).toBe(false);
  });

  it('NL: 1234 AB, with or without the space', () => {
    expect(zipcodeOk('1234 AB', 'NL')).toBe(true);
    expect(zipcodeOk('1234AB', 'NL')).toBe(true);
    expect(zipcodeOk('1234', 'NL')).toBe(false);
    expect(zipcodeOk('0123 AB', 'NL')).toBe(false);
    expect(zipcodeOk('1234  AB', 'NL')).toBe(false);
  });

  it('other countries: 2-10 letters, digits, spaces or hyphens', () => {
    expect(zipcodeOk('75008', 'FR')).toBe(true);
    expect(zipcodeOk('SW1A 1AA', 'GB')).toBe(true);
    expect(zipcodeOk('1234-567', 'PT')).toBe(true);
    expect(zipcodeOk('1', 'FR')).toBe(false);
    expect(zipcodeOk('12345678901', 'FR')).toBe(false);
    expect(zipcodeOk('75_008', 'FR')).toBe(false);
    expect(zipcodeOk('  ', 'FR')).toBe(false);
  });

  it('reports the zipcode of every residence, with its index', () => {
    const body = {
      prospect: {
        risk_objects: {
          residences: [
            { address: { zipcode: '9000' } },
            { address: { zipcode: '12', country_code: 'BE' } },
            { address: { zipcode: '1234 AB', country_code: 'NL' } },
          ],
        },
      },
    };
    expect(checkPayloadRules(body)).toEqual([
      { target: 'prospect.risk_objects.residences.1.address.zipcode', code: 'invalid', expected: 'zipcode_be' },
    ]);
  });

  it('leaves an unusable country code or zipcode to the schema', () => {
    expect(checkPayloadRules(withAddress({ zipcode: 'x', country_code: 'nl' }))).toEqual([]);
    expect(checkPayloadRules(withAddress({ zipcode: 9000 }))).toEqual([]);
  });
});

describe('duplicate ids', () => {
  it('reports the later use within cars, residences and across both', () => {
    const body = {
      prospect: {
        risk_objects: {
          cars: [{ id: ID_A }, { id: ID_B }, { id: ID_A }],
          residences: [{ id: ID_B.toUpperCase(), address: { zipcode: '9000' } }],
        },
      },
    };
    expect(checkPayloadRules(body)).toEqual([
      { target: 'prospect.risk_objects.cars.2.id', code: 'duplicate' },
      { target: 'prospect.risk_objects.residences.0.id', code: 'duplicate' },
    ]);
  });

  it('reports a policy package id used twice, but not one shared with a risk object', () => {
    const body = {
      prospect: { risk_objects: { cars: [{ id: ID_A }] }, policy_packages: [{ id: ID_A }, { id: ID_B }, { id: ID_B }] },
    };
    expect(checkPayloadRules(body)).toEqual([{ target: 'prospect.policy_packages.2.id', code: 'duplicate' }]);
  });

  it('does not check references, which may name data the party already has', () => {
    const body = {
      prospect: { insurance_policies: [{ policy_package_id: ID_A, coverages: [{ risk_object_id: ID_B }] }] },
    };
    expect(checkPayloadRules(body)).toEqual([]);
  });
});

describe('values that name one object, used twice in one push (rule 9)', () => {
  it('reports the later car with a VIN already given, whatever their ids', () => {
    const vin = 'WVWZZZ1JZXW000001';
    const body = {
      prospect: { risk_objects: { cars: [{ id: ID_A, vin }, { vin: null }, { vin }, { id: ID_B, vin }] } },
    };
    expect(checkPayloadRules(body)).toEqual([
      { target: 'prospect.risk_objects.cars.2.vin', code: 'duplicate' },
      { target: 'prospect.risk_objects.cars.3.vin', code: 'duplicate' },
    ]);
  });

  it('reports a policy number used twice by one insurance company, but not by two, nor without a company', () => {
    const body = {
      prospect: {
        insurance_policies: [
          { insurance_company: 'AG', policy_nr: '1' },
          { insurance_company: 'Ethias', policy_nr: '1' },
          { policy_nr: '1' },
          { policy_nr: '1' },
          { insurance_company: 'AG', policy_nr: '1' },
        ],
      },
    };
    expect(checkPayloadRules(body)).toEqual([{ target: 'prospect.insurance_policies.4.policy_nr', code: 'duplicate' }]);
  });

  it('reports a policy ref used again in the same policy or another, a ref of another company being another ref', () => {
    const body = {
      prospect: {
        insurance_policies: [
          { external_refs: [{ ref: 'r1' }, { ref: 'r1', company: 'crm' }, { ref: 'r1', company: null }] },
          { external_refs: [{ ref: 'r2' }, { ref: 'r1', company: 'crm' }] },
        ],
      },
    };
    expect(checkPayloadRules(body)).toEqual([
      { target: 'prospect.insurance_policies.0.external_refs.2', code: 'duplicate' },
      { target: 'prospect.insurance_policies.1.external_refs.1', code: 'duplicate' },
    ]);
  });

  it('reports a prospect ref given twice, in the list or in the older single-object form', () => {
    const body = {
      prospect: {
        external_refs: [
          { external_ref: 'x', external_ref_company: 'crm' },
          { external_ref: 'x' },
          { external_ref: 'x', external_ref_company: 'crm' },
        ],
        external_ref: { external_ref: 'x', external_ref_company: null },
      },
    };
    expect(checkPayloadRules(body)).toEqual([
      { target: 'prospect.external_refs.2', code: 'duplicate' },
      { target: 'prospect.external_ref', code: 'duplicate' },
    ]);
  });

  it('reports a callback URL listed twice', () => {
    const body = { prospect: { callbacks: ['https://a.example/h', 'https://b.example/h', 'https://a.example/h'] } };
    expect(checkPayloadRules(body)).toEqual([{ target: 'prospect.callbacks.2', code: 'duplicate' }]);
  });
});

describe('a malformed body', () => {
  it.each([
    null,
    'text',
    5,
    [],
    {},
    { prospect: null },
    { prospect: [] },
    { prospect: { risk_objects: 'x', address: 'x' } },
    { prospect: { risk_objects: { cars: 'x', residences: [null, 5, { address: null }] }, policy_packages: {} } },
    { prospect: { risk_objects: { cars: [{ id: 5 }, { id: 5 }] } } },
    { prospect: { insurance_policies: [{ external_refs: 'x' }, null, { policy_nr: 5, insurance_company: 5 }] } },
    { prospect: { external_refs: [{ external_ref: 5 }, { external_ref: 5 }], callbacks: [5, 5, null, null] } },
  ])('finds nothing to add in %j', (body) => {
    expect(checkPayloadRules(body)).toEqual([]);
  });
});
