// The pure merge (docs/design.md section 2, rules 6 to 9) without a database: a push
// merged into what a first push stored, and the changeset that would be written.
import { describe, expect, it } from 'vitest';
import { at, DISTRIBUTION, mergedAfter, policy, push, storedAfter, T0, T1, VIN_1, VIN_2 } from './merge-fixtures.ts';

const emptyPush = push({});
const ADDRESS = { street: 'Kerkstraat', housenr: '1', zipcode: '9000', city: 'Gent' };
import { mergeFields, mergePush } from './merge.ts';
import { duplicateProblems } from './uniqueness.ts';

describe('mergeFields (rule 6)', () => {
  it('overwrites present fields, keeps absent ones and clears nulls', () => {
    expect(mergeFields({ a: 1, b: 2, c: 3 }, { a: 10, c: null })).toEqual({ a: 10, b: 2 });
  });

  it('gives back the stored object itself when nothing changes: the same data in another key order, or clearing what is absent', () => {
    const stored = { a: { x: 1, y: 2 } };
    expect(mergeFields(stored, { a: { y: 2, x: 1 } })).toBe(stored);
    const other = { a: 1 };
    expect(mergeFields(other, { b: null })).toBe(other);
  });

  it('replaces a nested object as a whole', () => {
    expect(mergeFields({ address: { city: 'Gent', street: 'A' } }, { address: { city: 'Gent' } })).toEqual({
      address: { city: 'Gent' },
    });
  });
});

describe('a new lead (rule 2)', () => {
  it('stores every pushed part as new rows, without cleared (null) fields, and changes nothing it was given', () => {
    const first = push(
      {
        email: null,
        telephonenr: '1',
        external_refs: [{ external_ref: 'x', external_ref_company: 'crm' }],
        callbacks: ['https://a.example/hook'],
      },
      { origin: 'crm' },
    );
    const frozen = structuredClone(first);
    const { lead, changes } = mergePush(undefined, DISTRIBUTION, first, at(T0));
    expect(first).toEqual(frozen);
    expect(lead).toMatchObject({
      distributionId: DISTRIBUTION,
      type: 'CUSTOMER',
      version: 1,
      meta: { origin: 'crm' },
      created_at: T0,
      updated_at: T0,
    });
    expect(lead.fields).toEqual({ first_name: 'Els', last_name: 'Peeters', telephonenr: '1' });
    expect(changes).toMatchObject({
      head: 'insert',
      partyRefs: [{ company: 'crm', ref: 'x' }],
      callbacks: ['https://a.example/hook'],
    });
  });
});

describe('rule 6: fields, external refs and callbacks', () => {
  it('overwrites present fields, keeps absent ones, clears nulls, and adds refs and callbacks without removing any', () => {
    const { lead, changes, stored } = mergedAfter(
      push({
        first_name: 'Els',
        telephonenr: '1',
        email: 'a@b.be',
        external_refs: [{ external_ref: '1', external_ref_company: 'crm' }],
        callbacks: ['https://a.example/hook'],
      }),
      push({
        telephonenr: '2',
        email: null,
        external_refs: [{ external_ref: '2', external_ref_company: 'crm' }],
        callbacks: ['https://b.example/hook'],
      }),
    );
    expect(changes.head).toBe('update');
    expect(lead.fields).toEqual({ first_name: 'Els', last_name: 'Peeters', telephonenr: '2' });
    expect(lead.refs).toEqual([
      { company: 'crm', ref: '1' },
      { company: 'crm', ref: '2' },
    ]);
    expect(changes.partyRefs).toEqual([{ company: 'crm', ref: '2' }]);
    expect(lead.callbacks).toEqual(['https://a.example/hook', 'https://b.example/hook']);
    expect(changes.callbacks).toEqual(['https://b.example/hook']);
    expect(lead.updated_at).toBe(T1);
    expect(lead.version).toBe(stored.version + 1);
  });

  it('changes nothing for a push that repeats what is stored: no head update, no rows, the stored lead itself', () => {
    const first = push({ external_refs: [{ external_ref: 'x' }], risk_objects: { cars: [{ vin: VIN_1, kw: 1 }] } });
    const { lead, changes, stored } = mergedAfter(first, first);
    expect(changes.head).toBeUndefined();
    expect(lead).toBe(stored);
    expect(lead.updated_at).toBe(T0);
    expect([changes.riskObjects.insert, changes.riskObjects.update, changes.revisions, changes.partyRefs]).toEqual([
      [],
      [],
      [],
      [],
    ]);
  });

  it('deletes nothing by omission: risk objects, packages and policies left out stay', () => {
    const { lead, changes } = mergedAfter(
      push({
        risk_objects: { cars: [{ vin: VIN_1 }] },
        policy_packages: [{ id: 'p1' }],
        insurance_policies: [policy({ insurance_company: 'AG', policy_nr: '1' })],
      }),
      push({ first_name: 'Anna' }),
    );
    expect([lead.riskObjects.length, lead.packages.length, lead.policies.length]).toEqual([1, 1, 1]);
    expect(changes.riskObjects.remove).toEqual([]);
  });

  it('changes the stored lead it was given in no way', () => {
    const ids = at(T0).ids;
    const stored = storedAfter(push({ risk_objects: { cars: [{ id: 'car-a', vin: VIN_1, kw: 1 }] } }), ids);
    const frozen = structuredClone(stored);
    mergePush(
      stored,
      DISTRIBUTION,
      push({ telephonenr: '9', risk_objects: { cars: [{ id: 'car-a', kw: 2 }] } }),
      at(T1, ids),
    );
    expect(stored).toEqual(frozen);
  });
});

describe('rule 7: risk objects', () => {
  it('matches by id, then cars by VIN; changed data is a new revision, unchanged data keeps the current one', () => {
    const { lead, changes, stored } = mergedAfter(
      push({
        risk_objects: {
          cars: [
            { id: 'car-a', vin: VIN_1, kw: 100 },
            { vin: VIN_2, kw: 50 },
          ],
        },
      }),
      push({
        risk_objects: {
          cars: [
            { id: 'car-a', kw: 110 },
            { vin: VIN_2, kw: 50 },
          ],
        },
      }),
    );
    const [a, b] = stored.riskObjects;
    expect(lead.riskObjects).toHaveLength(2);
    expect(lead.riskObjects[0]).toMatchObject({
      id: a!.id,
      current: { revision_nr: 2, data: { vin: VIN_1, kw: 110 } },
      updated_at: T1,
    });
    expect(lead.riskObjects[1]).toBe(b);
    expect(changes.riskObjects.update.map((object) => object.id)).toEqual([a!.id]);
    expect(changes.revisions).toEqual([{ riskObjectId: a!.id, revision: lead.riskObjects[0]!.current }]);
  });

  it('keeps the old revision stored: a revision is a new row, never an update of the old one', () => {
    const { lead, changes, stored } = mergedAfter(
      push({ risk_objects: { cars: [{ id: 'car-a', vin: VIN_1, kw: 100 }] } }),
      push({ risk_objects: { cars: [{ id: 'car-a', kw: 110 }] } }),
    );
    expect(lead.riskObjects[0]!.current.id).not.toBe(stored.riskObjects[0]!.current.id);
    expect(changes.revisions.map((r) => r.revision.revision_nr)).toEqual([2]);
  });

  it('matches residences by their normalised address', () => {
    const { lead } = mergedAfter(
      push({
        risk_objects: {
          residences: [{ address: { street: 'Kerkstraat', housenr: '1', zipcode: '2000', city: 'Antwerpen' } }],
        },
      }),
      push({
        risk_objects: {
          residences: [
            { address: { street: ' kerkstraat ', housenr: '1', zipcode: '2000', city: 'ANTWERPEN' }, type: 'HOUSE' },
          ],
        },
      }),
    );
    expect(lead.riskObjects).toHaveLength(1);
    expect(lead.riskObjects[0]!.current.revision_nr).toBe(2);
  });

  it('adds an unmatched object with its client id as its first revision, after the stored ones', () => {
    const { lead, changes } = mergedAfter(
      push({ risk_objects: { cars: [{ vin: VIN_1 }] } }),
      push({ risk_objects: { cars: [{ id: 'car-b', vin: VIN_2 }] } }),
    );
    expect(lead.riskObjects[1]).toMatchObject({ id: 'car-b', vin: VIN_2, position: 1, current: { revision_nr: 1 } });
    expect(changes.riskObjects.insert.map((object) => object.id)).toEqual(['car-b']);
  });

  it('finds two entries of one push that land on one car, by VIN or by id after a VIN, the later one the duplicate', () => {
    const { lead, landings } = mergedAfter(
      push({ risk_objects: { cars: [{ id: 'car-a', vin: VIN_1, kw: 1 }] } }),
      push({
        risk_objects: {
          cars: [
            { vin: VIN_1, kw: 2 },
            { id: 'car-new', vin: VIN_1, kw: 3 },
            { id: 'car-a', kw: 4 },
          ],
        },
      }),
    );
    expect(duplicateProblems(lead, emptyPush, landings)).toEqual([
      { target: 'prospect.risk_objects.cars.1.vin', code: 'duplicate' },
      { target: 'prospect.risk_objects.cars.2.id', code: 'duplicate' },
    ]);
  });

  it('finds two cars of a first push with one VIN and two residences at one address', () => {
    const first = push({
      risk_objects: {
        cars: [
          { id: 'car-a', vin: VIN_1 },
          { id: 'car-b', vin: VIN_1 },
        ],
        residences: [{ address: ADDRESS }, { address: { ...ADDRESS, city: 'GENT ' } }],
      },
    });
    const { lead, landings } = mergePush(undefined, DISTRIBUTION, first, at(T0));
    expect(duplicateProblems(lead, first, landings)).toEqual([
      { target: 'prospect.risk_objects.cars.1.vin', code: 'duplicate' },
      { target: 'prospect.risk_objects.residences.1.address', code: 'duplicate' },
    ]);
  });

  for (const [given, holder] of [
    ['car-b', 'car-a'],
    ['car-a', 'car-b'],
  ] as const) {
    it(`finds ${given} given ${holder}'s VIN a duplicate of that VIN, whichever comes first (rule 9)`, () => {
      const second = push({ risk_objects: { cars: [{ id: given, vin: given === 'car-b' ? VIN_1 : VIN_2 }] } });
      const { lead, landings } = mergedAfter(
        push({
          risk_objects: {
            cars: [
              { id: 'car-a', vin: VIN_1 },
              { id: 'car-b', vin: VIN_2 },
            ],
          },
        }),
        second,
      );
      expect(duplicateProblems(lead, second, landings)).toEqual([
        { target: 'prospect.risk_objects.cars.0.vin', code: 'duplicate' },
      ]);
    });
  }

  it('finds no duplicate when two cars swap their VINs', () => {
    const swap = push({
      risk_objects: {
        cars: [
          { id: 'car-a', vin: VIN_2 },
          { id: 'car-b', vin: VIN_1 },
        ],
      },
    });
    const { lead, changes, landings } = mergedAfter(
      push({
        risk_objects: {
          cars: [
            { id: 'car-a', vin: VIN_1 },
            { id: 'car-b', vin: VIN_2 },
          ],
        },
      }),
      swap,
    );
    expect(duplicateProblems(lead, swap, landings)).toEqual([]);
    expect(changes.riskObjects.update.map((object) => [object.id, object.vin])).toEqual([
      ['car-a', VIN_2],
      ['car-b', VIN_1],
    ]);
  });
});

describe('rule 8: packages, policies and coverages', () => {
  it('matches packages by id and policies by external ref, then by insurance company + policy number', () => {
    const { lead, changes } = mergedAfter(
      push({
        policy_packages: [{ id: 'pkg', name: 'A' }],
        insurance_policies: [
          policy({ insurance_company: 'AG', policy_nr: '1' }, ['r1']),
          policy({ insurance_company: 'AG', policy_nr: '2' }),
        ],
      }),
      push({
        policy_packages: [{ id: 'pkg', name: 'B' }],
        insurance_policies: [
          policy({ policy_nr: '9' }, ['r1']),
          policy({ insurance_company: 'AG', policy_nr: '2', premium: '10' }),
        ],
      }),
    );
    expect(lead.packages).toHaveLength(1);
    expect(lead.packages[0]).toMatchObject({ data: { name: 'B' }, updated_at: T1 });
    expect(changes.packages.update.map((pkg) => pkg.id)).toEqual(['pkg']);
    expect(lead.policies.map((p) => p.data)).toEqual([
      { insurance_company: 'AG', policy_nr: '9' },
      { insurance_company: 'AG', policy_nr: '2', premium: '10' },
    ]);
    expect(changes.policies.insert).toEqual([]);
  });

  it('matches a package without an id by insurance company + package number', () => {
    const { lead, changes } = mergedAfter(
      push({ policy_packages: [{ insurance_company: 'AG', package_nr: 'K1', name: 'A' }] }),
      push({ policy_packages: [{ insurance_company: 'AG', package_nr: 'K1', name: 'B' }] }),
    );
    expect(lead.packages.map((pkg) => pkg.data.name)).toEqual(['B']);
    expect(changes.packages.insert).toEqual([]);
  });

  it("replaces a policy's coverages when the push lists them, keeps them when it does not, and follows client ids", () => {
    const ids = at(T0).ids;
    const stored = storedAfter(
      push({
        risk_objects: { cars: [{ id: 'car-a', vin: VIN_1 }] },
        insurance_policies: [policy({ coverages: [{ risk_object_id: 'car-a', name: 'OMNIUM' }] }, ['r1'])],
      }),
      ids,
    );
    const kept = mergePush(
      stored,
      DISTRIBUTION,
      push({ insurance_policies: [policy({ premium: '1' }, ['r1'])] }),
      at(T1, ids),
    );
    expect(kept.lead.policies[0]!.coverages.map((c) => c.data)).toEqual([{ name: 'OMNIUM' }]);
    expect(kept.changes.coverages).toEqual({ deleteFor: [], insert: [] });

    // A car sent with a new client id but a stored VIN is the stored car: the coverage follows it.
    const replaced = mergePush(
      kept.lead,
      DISTRIBUTION,
      push({
        risk_objects: { cars: [{ id: 'car-x', vin: VIN_1 }] },
        insurance_policies: [policy({ coverages: [{ risk_object_id: 'car-x', name: 'BA' }] }, ['r1'])],
      }),
      at(T1, ids),
    );
    const policyId = stored.policies[0]!.id;
    expect(replaced.lead.policies[0]!.coverages.map((c) => [c.risk_object_id, c.data])).toEqual([
      ['car-a', { name: 'BA' }],
    ]);
    expect(replaced.changes.coverages.deleteFor).toEqual([policyId]);
    expect(replaced.changes.coverages.insert.map((row) => [row.policyId, row.position])).toEqual([[policyId, 0]]);
  });

  it('keeps the coverages of a policy whose pushed list is the same, ids apart', () => {
    const first = push({ insurance_policies: [policy({ coverages: [{ name: 'BA' }] }, ['r1'])] });
    const { changes } = mergedAfter(first, first);
    expect(changes.head).toBeUndefined();
  });

  it('points a policy at a package found by its client id in the same push', () => {
    const { lead } = mergedAfter(
      push({ policy_packages: [{ id: 'pkg', name: 'A' }] }),
      push({
        policy_packages: [{ id: 'pkg' }],
        insurance_policies: [policy({ policy_package_id: 'pkg', insurance_company: 'AG', policy_nr: '1' })],
      }),
    );
    expect(lead.policies[0]!.policy_package_id).toBe('pkg');
  });

  it("adds a policy's new external refs, and keeps its old ones", () => {
    const { changes, lead } = mergedAfter(
      push({ insurance_policies: [policy({ insurance_company: 'AG', policy_nr: '1' }, ['r1'])] }),
      push({ insurance_policies: [policy({ insurance_company: 'AG', policy_nr: '1' }, ['r1', 'r2'])] }),
    );
    expect(lead.policies[0]!.refs.map((r) => r.ref)).toEqual(['r1', 'r2']);
    expect(changes.policyRefs.map((r) => [r.ref.ref, r.at])).toEqual([['r2', T1]]);
  });

  for (const [ref, number] of [
    ['r2', '1'],
    ['r1', '2'],
  ] as const) {
    it(`finds a policy found by ${ref} and given another policy's number ${number} a duplicate of that number (rule 9)`, () => {
      const second = push({
        insurance_policies: [policy({ insurance_company: 'AG', policy_nr: number }, ['new', ref])],
      });
      const { lead, landings } = mergedAfter(
        push({
          insurance_policies: [
            policy({ insurance_company: 'AG', policy_nr: '1' }, ['r1']),
            policy({ insurance_company: 'AG', policy_nr: '2' }, ['r2']),
          ],
        }),
        second,
      );
      expect(duplicateProblems(lead, second, landings)).toEqual([
        { target: 'prospect.insurance_policies.0.policy_nr', code: 'duplicate' },
      ]);
    });
  }

  it('finds two policies of one push that land on one policy, by ref or by number, and a ref put on two policies', () => {
    const second = push({
      insurance_policies: [
        policy({ name: 'a' }, ['r1']),
        policy({ name: 'b' }, ['r1']),
        policy({ insurance_company: 'AG', policy_nr: '2' }, ['new']),
        policy({ insurance_company: 'AG', policy_nr: '2' }),
        policy({ name: 'c' }, ['fresh']),
        policy({ name: 'd' }, ['r2', 'fresh']),
      ],
    });
    const { lead, landings } = mergedAfter(
      push({
        insurance_policies: [
          policy({ insurance_company: 'AG', policy_nr: '1' }, ['r1']),
          policy({ insurance_company: 'AG', policy_nr: '2' }, ['r2']),
        ],
      }),
      second,
    );
    expect(duplicateProblems(lead, second, landings)).toEqual([
      { target: 'prospect.insurance_policies.1.external_refs.0', code: 'duplicate' },
      { target: 'prospect.insurance_policies.3.policy_nr', code: 'duplicate' },
      { target: 'prospect.insurance_policies.5.external_refs.0', code: 'duplicate' },
      { target: 'prospect.insurance_policies.5.external_refs.1', code: 'duplicate' },
    ]);
  });

  it('matches a package with an unknown id by insurance company + package number, so renewed ids find it', () => {
    const { lead, landings, changes } = mergedAfter(
      push({ policy_packages: [{ id: 'pkg-a', package_nr: 'P1', insurance_company: 'AG' }] }),
      push({
        policy_packages: [{ id: 'pkg-renewed', package_nr: 'P1', insurance_company: 'AG', name: 'Gezin' }],
        insurance_policies: [policy({ policy_package_id: 'pkg-renewed' })],
      }),
    );
    expect(lead.packages.map((pkg) => [pkg.id, pkg.data.name])).toEqual([['pkg-a', 'Gezin']]);
    expect(lead.policies[0]!.policy_package_id).toBe('pkg-a');
    expect(changes.packages.insert).toEqual([]);
    expect(landings.map((landing) => landing.matchedBy)).toEqual([
      'prospect.policy_packages.0.package_nr',
      'prospect.insurance_policies.0',
    ]);
  });
});
