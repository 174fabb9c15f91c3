// A refused push's references to ids it does not hold (docs/design.md section 3), read
// from a body that failed its schema, and which of them dangle once the database said
// which ids are stored.
import { describe, expect, it } from 'vitest';
import { danglingReferences, idsToLookUp, referencesOutsidePush } from './dangling-references.ts';

const PACKAGE = '0b7a6c1e-3f1d-4c3e-9a53-5d0f4b1e2a01';
const CAR = '7d2e4f60-1b3c-4d5e-8f70-9a1b2c3d4e5f';
const OTHER = 'c0ffee00-0000-4000-8000-000000000001';

const body = (prospect: unknown) => ({ prospect });

describe('referencesOutsidePush', () => {
  it('lists the package and risk object ids a policy names that the push does not hold, with where they are', () => {
    const references = referencesOutsidePush(
      body({
        insurance_policies: [
          { policy_package_id: PACKAGE, coverages: [{ risk_object_id: CAR }, { risk_object_id: 'not-a-uuid' }] },
        ],
      }),
    );
    expect(references).toEqual([
      { table: 'policy_packages', id: PACKAGE, target: 'prospect.insurance_policies.0.policy_package_id' },
      { table: 'risk_objects', id: CAR, target: 'prospect.insurance_policies.0.coverages.0.risk_object_id' },
    ]);
  });

  it('leaves out ids the push holds itself, in whatever case either is written', () => {
    const references = referencesOutsidePush(
      body({
        risk_objects: { cars: [{ id: CAR.toUpperCase() }], residences: 'not a list' },
        policy_packages: [{ id: PACKAGE }],
        insurance_policies: [
          { policy_package_id: PACKAGE.toUpperCase(), coverages: [{ risk_object_id: CAR }] },
          { coverages: [{ risk_object_id: OTHER.toUpperCase() }] },
        ],
      }),
    );
    expect(references).toEqual([
      { table: 'risk_objects', id: OTHER, target: 'prospect.insurance_policies.1.coverages.0.risk_object_id' },
    ]);
  });

  it('finds nothing in a body of the wrong shape', () => {
    for (const wrong of [null, 'text', [], { prospect: [] }, body({ insurance_policies: { 0: {} } })])
      expect(referencesOutsidePush(wrong)).toEqual([]);
  });
});

describe('danglingReferences', () => {
  const references = referencesOutsidePush(
    body({
      insurance_policies: [
        { policy_package_id: PACKAGE, coverages: [{ risk_object_id: CAR }, { risk_object_id: CAR }] },
      ],
    }),
  );

  it('asks for each id once, per table', () => {
    expect(idsToLookUp(references)).toEqual({ riskObjectIds: [CAR], packageIds: [PACKAGE] });
  });

  it('reports every reference to an id stored nowhere, and none to a stored one', () => {
    expect(danglingReferences(references, new Set([`risk_objects:${CAR}`]))).toEqual([
      { target: 'prospect.insurance_policies.0.policy_package_id', code: 'unknown_reference' },
    ]);
    expect(danglingReferences(references, new Set())).toHaveLength(3);
  });
});
