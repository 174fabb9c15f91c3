// The push read once (push.ts): every part carries the dot path it came from.
import { describe, expect, it } from 'vitest';
import { policy, push } from './merge-fixtures.ts';

describe('parsePush', () => {
  const pushed = push(
    {
      email: null,
      external_refs: [{ external_ref: 'a', external_ref_company: 'crm' }],
      external_ref: { external_ref: 'b' },
      risk_objects: {
        cars: [{ id: 'car-a', vin: 'WVWZZZ1JZXW000001' }],
        residences: [{ address: { housenr: '1', zipcode: '2000', city: 'Gent' } }],
      },
      policy_packages: [{ id: 'pkg', name: 'P' }],
      insurance_policies: [
        {},
        policy({ policy_package_id: 'pkg', coverages: [{ risk_object_id: 'car-a', name: 'BA' }] }, ['r1']),
      ],
    },
    { origin: 'crm', backref: null },
  );

  it("keeps the prospect's own fields apart from its collections, nulls included", () => {
    expect(pushed.fields).toEqual({ first_name: 'Els', last_name: 'Peeters', email: null });
    expect(pushed.meta).toEqual({ origin: 'crm', backref: null });
  });

  it('gives each part the target of the body it came from', () => {
    expect(pushed.refs).toEqual([
      { value: { company: 'crm', ref: 'a' }, target: 'prospect.external_refs.0' },
      { value: { company: '', ref: 'b' }, target: 'prospect.external_ref' },
    ]);
    expect(pushed.riskObjects.map((o) => [o.type, o.clientId, o.target])).toEqual([
      ['CAR', 'car-a', 'prospect.risk_objects.cars.0'],
      ['RESIDENCE', undefined, 'prospect.risk_objects.residences.0'],
    ]);
    expect(pushed.packages.map((p) => [p.clientId, p.data, p.target])).toEqual([
      ['pkg', { name: 'P' }, 'prospect.policy_packages.0'],
    ]);
    expect(pushed.policies[1]).toEqual({
      data: {},
      packageId: 'pkg',
      refs: [{ value: { company: '', ref: 'r1' }, target: 'prospect.insurance_policies.1.external_refs.0' }],
      coverages: [{ riskObjectId: 'car-a', data: { name: 'BA' } }],
      target: 'prospect.insurance_policies.1',
    });
    expect(pushed.policies[0]!.coverages).toBeUndefined();
  });

  it('computes the customer match key once, and none for a company', () => {
    const address = { housenr: '1', zipcode: '2000', city: 'Gent' };
    expect(push({ email: 'A@b.be', birth: '1990-01-01', address }).matchKey).toBe('a@b.be|1990-01-01|be|2000|gent||1|');
    expect(push({ email: 'a@b.be', address }, {}, 'COMPANY').matchKey).toBeNull();
  });
});
