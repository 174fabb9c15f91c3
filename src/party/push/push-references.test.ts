// References a push makes to stored data (docs/design.md section 2): client-chosen ids and
// policy refs of other parties are 409, references that name nothing are 422, all found
// at once. Without a database: `found` is what push-candidates.repository.ts would have read.
import { describe, expect, it } from 'vitest';
import { ConflictError, ValidationError } from '../../errors.ts';
import { candidates, policy, push, storedAfter, VIN_1 } from './merge-fixtures.ts';
import { checkReferences } from './push-references.ts';

function refusal(run: () => void): { status: number; targets: string[] } | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    if (!(error instanceof ConflictError || error instanceof ValidationError)) throw error;
    return { status: error.status, targets: error.problems.map((p) => `${p.target} ${p.code}`) };
  }
}

describe('client-chosen ids and policy refs of another party (409)', () => {
  it('refuses risk object and package ids, and policy refs, that another party owns, all in one answer', () => {
    const pushed = push({
      risk_objects: { cars: [{ id: 'car-x', vin: VIN_1 }] },
      policy_packages: [{ id: 'pkg-x' }],
      insurance_policies: [policy({}, ['pol-x'])],
    });
    expect(
      refusal(() =>
        checkReferences(
          pushed,
          candidates({
            riskObjectOwners: new Map([['car-x', { partyId: 'other', removed: false }]]),
            packageOwners: new Map([['pkg-x', 'other']]),
            policyRefOwners: [{ ref: { company: '', ref: 'pol-x' }, policyId: 'other-policy' }],
          }),
          undefined,
        ),
      ),
    ).toEqual({
      status: 409,
      targets: [
        'prospect.risk_objects.cars.0.id owned_elsewhere',
        'prospect.policy_packages.0.id owned_elsewhere',
        'prospect.insurance_policies.0.external_refs.0 owned_elsewhere',
      ],
    });
  });

  it("accepts the matched party's own ids and policy refs", () => {
    const stored = storedAfter(
      push({
        risk_objects: { cars: [{ id: 'car-a', vin: VIN_1 }] },
        policy_packages: [{ id: 'pkg-a' }],
        insurance_policies: [policy({}, ['r1'])],
      }),
    );
    const again = push({
      risk_objects: { cars: [{ id: 'car-a', kw: 1 }] },
      policy_packages: [{ id: 'pkg-a' }],
      insurance_policies: [policy({ premium: '1' }, ['r1'])],
    });
    expect(
      refusal(() =>
        checkReferences(
          again,
          candidates({
            riskObjectOwners: new Map([['car-a', { partyId: stored.partyId, removed: false }]]),
            packageOwners: new Map([['pkg-a', stored.partyId]]),
            policyRefOwners: [{ ref: { company: '', ref: 'r1' }, policyId: stored.policies[0]!.id }],
          }),
          stored,
        ),
      ),
    ).toBeUndefined();
  });

  it('refuses one pushed policy whose refs name two different stored policies', () => {
    const stored = storedAfter(
      push({ insurance_policies: [policy({ policy_nr: '1' }, ['r1']), policy({ policy_nr: '2' }, ['r2'])] }),
    );
    const [one, two] = stored.policies;
    expect(
      refusal(() =>
        checkReferences(
          push({ insurance_policies: [policy({}, ['r1', 'r2'])] }),
          candidates({
            policyRefOwners: [
              { ref: { company: '', ref: 'r1' }, policyId: one!.id },
              { ref: { company: '', ref: 'r2' }, policyId: two!.id },
            ],
          }),
          stored,
        ),
      ),
    ).toEqual({ status: 409, targets: ['prospect.insurance_policies.0.external_refs conflict_parties'] });
  });
});

describe('references that name nothing, and ids that cannot be this object (422)', () => {
  it('refuses a policy_package_id and a risk_object_id naming nothing in the push or the party, each on its field', () => {
    const pushed = push({
      insurance_policies: [
        policy({ policy_package_id: 'pkg-none', coverages: [{ name: 'BA' }, { risk_object_id: 'car-none' }] }),
      ],
    });
    expect(refusal(() => checkReferences(pushed, candidates(), undefined))).toEqual({
      status: 422,
      targets: [
        'prospect.insurance_policies.0.policy_package_id unknown_reference',
        'prospect.insurance_policies.0.coverages.1.risk_object_id unknown_reference',
      ],
    });
  });

  it('accepts references to objects of the same push and of the matched party', () => {
    const stored = storedAfter(
      push({ risk_objects: { cars: [{ id: 'car-a', vin: VIN_1 }] }, policy_packages: [{ id: 'pkg-a' }] }),
    );
    const pushed = push({
      policy_packages: [{ id: 'pkg-b' }],
      insurance_policies: [
        policy({ policy_package_id: 'pkg-a', coverages: [{ risk_object_id: 'car-a' }] }),
        policy({ policy_package_id: 'pkg-b' }),
      ],
    });
    expect(refusal(() => checkReferences(pushed, candidates(), stored))).toBeUndefined();
  });

  it("refuses a risk object id of the party's removed object, or of its object of the other kind", () => {
    const stored = storedAfter(
      push({
        risk_objects: { residences: [{ id: 'home', address: { housenr: '1', zipcode: '2000', city: 'Antwerpen' } }] },
      }),
    );
    expect(
      refusal(() =>
        checkReferences(
          push({ risk_objects: { cars: [{ id: 'home' }] } }),
          candidates({
            riskObjectOwners: new Map([['home', { partyId: stored.partyId, removed: false }]]),
          }),
          stored,
        ),
      ),
    ).toEqual({ status: 422, targets: ['prospect.risk_objects.cars.0.id invalid'] });
    expect(
      refusal(() =>
        checkReferences(
          push({ risk_objects: { cars: [{ id: 'gone' }] } }),
          candidates({
            riskObjectOwners: new Map([['gone', { partyId: stored.partyId, removed: true }]]),
          }),
          stored,
        ),
      ),
    ).toEqual({ status: 422, targets: ['prospect.risk_objects.cars.0.id invalid'] });
  });
});
