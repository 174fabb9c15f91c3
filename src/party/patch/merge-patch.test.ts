import { describe, expect, it } from 'vitest';
import { at, policy, push, storedAfter, T1, VIN_1, VIN_2 } from '../push/merge-fixtures.ts';
import { applyMergePatch, documentOf, mergePartyDocument, misplacedRiskObjects } from './merge-patch.ts';

// The examples of RFC 7396 appendix A.
describe('applyMergePatch (RFC 7396)', () => {
  const cases: Array<[unknown, unknown, unknown]> = [
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [
      ['a', 'b'],
      ['c', 'd'],
      ['c', 'd'],
    ],
    [{ a: 'b' }, ['c'], ['c']],
    [{ a: 'foo' }, null, null],
    [{ a: 'foo' }, 'bar', 'bar'],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [[1, 2], { a: 'b', c: null }, { a: 'b' }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ];
  it.each(cases)('%j patched with %j gives %j', (target, patch, expected) => {
    expect(applyMergePatch(target, patch)).toEqual(expected);
  });

  it('keeps arrays whole: nulls inside them are values, not removals', () => {
    expect(applyMergePatch({ cars: [{ id: 1, kw: 2 }] }, { cars: [{ id: 1, kw: null }] })).toEqual({
      cars: [{ id: 1, kw: null }],
    });
  });
});

describe('mergePartyDocument (a party update: arrays replace)', () => {
  const ids = () => at(T1);
  const stored = storedAfter(
    push({
      telephonenr: '1',
      risk_objects: {
        cars: [
          { id: 'car-a', vin: VIN_1, kw: 1 },
          { id: 'car-b', vin: VIN_2 },
        ],
      },
      insurance_policies: [policy({ insurance_company: 'AG', policy_nr: '1' })],
    }),
  );

  it("replaces the fields with the patched document's, cleared ones left out", () => {
    const document = applyMergePatch(documentOf(stored), { telephonenr: null, email: 'a@b.be' }) as Record<
      string,
      unknown
    >;
    const { lead, changes } = mergePartyDocument(stored, document, ids());
    expect(lead.fields).toEqual({ first_name: 'Els', last_name: 'Peeters', email: 'a@b.be' });
    expect(changes.head).toBe('update');
    expect(lead.version).toBe(stored.version + 1);
  });

  it('removes a risk object left out of its list, revises a changed one, keeps an unchanged one, and adds a new one at the end', () => {
    const document = applyMergePatch(documentOf(stored), {
      risk_objects: {
        cars: [
          { id: 'car-b', vin: VIN_2 },
          { id: 'car-n', vin: 'WVWZZZ1JZXW000003' },
        ],
        residences: [],
      },
    }) as Record<string, unknown>;
    const kept = applyMergePatch(documentOf(stored), {
      risk_objects: {
        cars: [
          { id: 'car-a', vin: VIN_1, kw: 2 },
          { id: 'car-b', vin: VIN_2 },
        ],
      },
    }) as Record<string, unknown>;

    const removed = mergePartyDocument(stored, document, ids());
    expect(removed.lead.riskObjects.map((o) => [o.id, o.position])).toEqual([
      ['car-b', 1],
      ['car-n', 2],
    ]);
    expect(removed.changes.riskObjects.remove.map((o) => [o.id, o.updated_at])).toEqual([['car-a', T1]]);
    expect(removed.changes.riskObjects.insert.map((o) => o.id)).toEqual(['car-n']);
    expect(removed.changes.riskObjects.update).toEqual([]);

    const revised = mergePartyDocument(stored, kept, ids());
    expect(revised.changes.riskObjects.update.map((o) => [o.id, o.current.revision_nr, o.current.data.kw])).toEqual([
      ['car-a', 2, 2],
    ]);
    expect(revised.lead.riskObjects[1]).toBe(stored.riskObjects[1]);
  });

  it('changes nothing for a patch that repeats what is stored, and leaves policies alone', () => {
    const { lead, changes } = mergePartyDocument(
      stored,
      applyMergePatch(documentOf(stored), { telephonenr: '1' }) as Record<string, unknown>,
      ids(),
    );
    expect(changes.head).toBeUndefined();
    expect(lead).toBe(stored);
    expect(lead.policies).toBe(stored.policies);
  });

  it("finds a stored car's id listed among the residences", () => {
    const document = {
      ...documentOf(stored),
      risk_objects: {
        cars: [],
        residences: [{ id: 'car-a', address: { housenr: '1', zipcode: '2000', city: 'Gent' } }],
      },
    };
    expect(misplacedRiskObjects(stored, document)).toEqual([
      { target: 'risk_objects.residences.0.id', code: 'invalid' },
    ]);
  });
});
