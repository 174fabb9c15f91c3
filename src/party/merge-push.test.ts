// mergePush on the in-memory aggregate: docs/design.md section 2, rules 6 to 8 (and the
// uniqueness of VINs and policy numbers within a party), without a database.
import { describe, expect, it } from 'vitest';
import { mergePush, type LeadPush, type PolicyPush } from './merge.ts';
import type { LeadAggregate } from './party.aggregate.ts';
import { duplicateProblems } from './uniqueness.ts';

const T0 = '2026-01-01T00:00:00.000Z';
const T1 = '2026-01-02T00:00:00.000Z';
const VIN_1 = 'WVWZZZ1JZXW000001';
const VIN_2 = 'WVWZZZ1JZXW000002';

function emptyLead(): LeadAggregate {
  return {
    leadId: 'lead', partyId: 'party', distributionId: 'd', type: 'CUSTOMER', meta: {}, fields: {}, version: 1,
    refs: [], callbacks: [], riskObjects: [], packages: [], policies: [], created_at: T0, updated_at: T0,
  };
}

function push(parts: Partial<LeadPush>): LeadPush {
  return { meta: {}, fields: {}, refs: [], callbacks: [], cars: [], residences: [], packages: [], policies: [], ...parts };
}

function policy(parts: Partial<PolicyPush>): PolicyPush {
  return { fields: {}, policy_package_id: undefined, refs: [], coverages: undefined, ...parts };
}

/** A lead as stored after `first`, with the merge's bookkeeping flags cleared. */
function storedAfter(first: LeadPush): LeadAggregate {
  const lead = emptyLead();
  mergePush(lead, first, T0);
  return structuredClone({
    ...lead,
    riskObjects: lead.riskObjects.map(({ isNew, newRevision, ...object }) => object),
    packages: lead.packages.map(({ isNew, changed, ...pkg }) => pkg),
    policies: lead.policies.map(({ isNew, changed, coveragesChanged, newRefs, ...rest }) => rest),
  });
}

describe('rule 6: fields, external refs and callbacks', () => {
  it('overwrites present fields, keeps absent ones, clears nulls, and adds refs and callbacks without removing any', () => {
    const lead = storedAfter(push({
      fields: { first_name: 'Els', telephonenr: '1', email: 'a@b.be' },
      refs: [{ company: 'crm', ref: '1' }],
      callbacks: ['https://a.example/hook'],
    }));
    const changed = mergePush(lead, push({
      fields: { telephonenr: '2', email: null },
      refs: [{ company: 'crm', ref: '2' }],
      callbacks: ['https://b.example/hook'],
    }), T1);
    expect(changed).toBe(true);
    expect(lead.fields).toEqual({ first_name: 'Els', telephonenr: '2' });
    expect(lead.refs).toEqual([{ company: 'crm', ref: '1' }, { company: 'crm', ref: '2' }]);
    expect(lead.callbacks).toEqual(['https://a.example/hook', 'https://b.example/hook']);
    expect(lead.updated_at).toBe(T1);
  });

  it('changes nothing for a push that repeats what is stored', () => {
    const first = push({ fields: { first_name: 'Els' }, refs: [{ company: '', ref: 'x' }], cars: [{ vin: VIN_1, kw: 1 }] });
    const lead = storedAfter(first);
    expect(mergePush(lead, first, T1)).toBe(false);
    expect(lead.updated_at).toBe(T0);
  });

  it('deletes nothing by omission: risk objects, packages and policies left out stay', () => {
    const lead = storedAfter(push({ cars: [{ vin: VIN_1 }], packages: [{ id: 'p1' }], policies: [policy({ fields: { insurance_company: 'AG', policy_nr: '1' } })] }));
    mergePush(lead, push({ fields: { first_name: 'Els' } }), T1);
    expect([lead.riskObjects.length, lead.packages.length, lead.policies.length]).toEqual([1, 1, 1]);
  });
});

describe('rule 7: risk objects', () => {
  it('matches by id, then cars by VIN; changed data is a new revision, unchanged data keeps the current one', () => {
    const lead = storedAfter(push({ cars: [{ id: 'car-a', vin: VIN_1, kw: 100 }, { vin: VIN_2, kw: 50 }] }));
    const [a, b] = lead.riskObjects;
    mergePush(lead, push({ cars: [{ id: 'car-a', kw: 110 }, { vin: VIN_2, kw: 50 }] }), T1);
    expect(lead.riskObjects).toHaveLength(2);
    expect(lead.riskObjects[0]).toMatchObject({ id: a!.id, newRevision: true, current: { revision_nr: 2, data: { vin: VIN_1, kw: 110 } } });
    expect(lead.riskObjects[1]).toMatchObject({ id: b!.id, current: { revision_nr: 1 } });
    expect(lead.riskObjects[1]!.newRevision).toBeUndefined();
  });

  it('matches residences by their normalised address', () => {
    const lead = storedAfter(push({ residences: [{ address: { street: 'Kerkstraat', housenr: '1', zipcode: '2000', city: 'Antwerpen' } }] }));
    mergePush(lead, push({ residences: [{ address: { street: ' kerkstraat ', housenr: '1', zipcode: '2000', city: 'ANTWERPEN' }, type: 'HOUSE' }] }), T1);
    expect(lead.riskObjects).toHaveLength(1);
    expect(lead.riskObjects[0]!.current.revision_nr).toBe(2);
  });

  it('adds an unmatched object with its client id as its first revision', () => {
    const lead = storedAfter(push({ cars: [{ vin: VIN_1 }] }));
    mergePush(lead, push({ cars: [{ id: 'car-b', vin: VIN_2 }] }), T1);
    expect(lead.riskObjects[1]).toMatchObject({ id: 'car-b', vin: VIN_2, isNew: true, current: { revision_nr: 1 } });
  });

  it('finds a car given another car\'s VIN as a duplicate of that VIN', () => {
    const lead = storedAfter(push({ cars: [{ id: 'car-a', vin: VIN_1 }, { id: 'car-b', vin: VIN_2 }] }));
    const second = push({ cars: [{ id: 'car-b', vin: VIN_1 }] });
    mergePush(lead, second, T1);
    expect(duplicateProblems(lead, second)).toEqual([{ target: 'prospect.risk_objects.cars.0.vin', code: 'duplicate' }]);
  });

  it('finds no duplicate when two cars swap their VINs', () => {
    const lead = storedAfter(push({ cars: [{ id: 'car-a', vin: VIN_1 }, { id: 'car-b', vin: VIN_2 }] }));
    const swap = push({ cars: [{ id: 'car-a', vin: VIN_2 }, { id: 'car-b', vin: VIN_1 }] });
    mergePush(lead, swap, T1);
    expect(duplicateProblems(lead, swap)).toEqual([]);
  });
});

describe('rule 8: packages, policies and coverages', () => {
  it('matches packages by id and policies by external ref, then by insurance company + policy number', () => {
    const lead = storedAfter(push({
      packages: [{ id: 'pkg', name: 'A' }],
      policies: [
        policy({ fields: { insurance_company: 'AG', policy_nr: '1' }, refs: [{ company: '', ref: 'r1' }] }),
        policy({ fields: { insurance_company: 'AG', policy_nr: '2' } }),
      ],
    }));
    mergePush(lead, push({
      packages: [{ id: 'pkg', name: 'B' }],
      policies: [
        policy({ fields: { policy_nr: '9' }, refs: [{ company: '', ref: 'r1' }] }),
        policy({ fields: { insurance_company: 'AG', policy_nr: '2', premium: 10 } }),
      ],
    }), T1);
    expect(lead.packages).toHaveLength(1);
    expect(lead.packages[0]).toMatchObject({ data: { name: 'B' }, changed: true });
    expect(lead.policies.map((p) => p.data)).toEqual([
      { insurance_company: 'AG', policy_nr: '9' },
      { insurance_company: 'AG', policy_nr: '2', premium: 10 },
    ]);
  });

  it('replaces a policy\'s coverages when the push lists them, keeps them when it does not, and follows client ids', () => {
    const lead = storedAfter(push({
      cars: [{ id: 'car-a', vin: VIN_1 }],
      policies: [policy({ refs: [{ company: '', ref: 'r1' }], coverages: [{ risk_object_id: 'car-a', data: { type: 'OMNIUM' } }] })],
    }));
    mergePush(lead, push({ policies: [policy({ refs: [{ company: '', ref: 'r1' }], fields: { premium: 1 } })] }), T1);
    expect(lead.policies[0]!.coverages.map((c) => c.data)).toEqual([{ type: 'OMNIUM' }]);
    expect(lead.policies[0]!.coveragesChanged).toBeUndefined();

    // A car sent with a new client id but a stored VIN is the stored car: the coverage follows it.
    mergePush(lead, push({
      cars: [{ id: 'car-x', vin: VIN_1 }],
      policies: [policy({ refs: [{ company: '', ref: 'r1' }], coverages: [{ risk_object_id: 'car-x', data: { type: 'BA' } }] })],
    }), T1);
    expect(lead.policies[0]!.coverages.map((c) => [c.risk_object_id, c.data])).toEqual([['car-a', { type: 'BA' }]]);
    expect(lead.policies[0]!.coveragesChanged).toBe(true);
  });

  it('finds a policy found by its ref and given another policy\'s number as a duplicate of that number', () => {
    const lead = storedAfter(push({
      policies: [
        policy({ fields: { insurance_company: 'AG', policy_nr: '1' }, refs: [{ company: '', ref: 'r1' }] }),
        policy({ fields: { insurance_company: 'AG', policy_nr: '2' }, refs: [{ company: '', ref: 'r2' }] }),
      ],
    }));
    const second = push({ policies: [policy({ fields: { insurance_company: 'AG', policy_nr: '1' }, refs: [{ company: '', ref: 'r2' }] })] });
    mergePush(lead, second, T1);
    expect(duplicateProblems(lead, second)).toEqual([{ target: 'prospect.insurance_policies.0.policy_nr', code: 'duplicate' }]);
  });
});
