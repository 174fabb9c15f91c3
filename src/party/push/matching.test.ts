// Matching (docs/design.md section 2, rules 1 to 5) on what the database said about a
// push's keys, without a database.
import { describe, expect, it } from 'vitest';
import { ConflictError, ValidationError } from '../../errors.ts';
import { candidates, push } from './merge-fixtures.ts';
import { matchKeyConflict, matchParty } from './matching.ts';

const ADDRESS = { street: 'Kerkstraat', housenr: '1', zipcode: '2000', city: 'Antwerpen' };
const refA = { company: 'crm', ref: 'a' };

function problemsOf(run: () => unknown): { type: string; targets: string[] } {
  try {
    run();
  } catch (error) {
    if (error instanceof ConflictError || error instanceof ValidationError) {
      return { type: error.type, targets: error.problems.map((p) => `${p.target} ${p.code}`) };
    }
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('rules 1 to 3: the party a push is about', () => {
  it('finds no party for keys nobody holds: a new lead (rule 2)', () => {
    expect(
      matchParty(push({ external_refs: [{ external_ref: 'a', external_ref_company: 'crm' }] }), candidates()),
    ).toBeUndefined();
  });

  it('matches by prospect.id, by any external ref, and by email + birth + address, and all may agree (rules 1 and 3)', () => {
    const pushed = push({
      id: 'p1',
      email: 'a@b.be',
      birth: '1990-01-01',
      address: ADDRESS,
      external_refs: [{ external_ref: 'a', external_ref_company: 'crm' }],
    });
    expect(
      matchParty(
        pushed,
        candidates({
          party: { id: 'p1', kind: 'CUSTOMER' },
          refOwners: [{ ref: refA, partyId: 'p1', kind: 'CUSTOMER' }],
          matchKeyOwner: { partyId: 'p1', kind: 'CUSTOMER' },
        }),
      ),
    ).toBe('p1');
    expect(
      matchParty(
        push({ external_refs: [{ external_ref: 'a', external_ref_company: 'crm' }] }),
        candidates({ refOwners: [{ ref: refA, partyId: 'p2', kind: 'CUSTOMER' }] }),
      ),
    ).toBe('p2');
    expect(
      matchParty(
        push({ email: 'a@b.be', birth: '1990-01-01', address: ADDRESS }),
        candidates({ matchKeyOwner: { partyId: 'p3', kind: 'CUSTOMER' } }),
      ),
    ).toBe('p3');
  });

  it('reads a prospect.id in any case as the same party id (ours are lower-case)', () => {
    expect(push({ id: 'ABCDEF01-0000-4000-8000-00000000000A' }).partyId).toBe('abcdef01-0000-4000-8000-00000000000a');
  });

  it('matches the older single external_ref form like the array form', () => {
    expect(
      matchParty(
        push({ external_ref: { external_ref: 'a', external_ref_company: 'crm' } }),
        candidates({ refOwners: [{ ref: refA, partyId: 'p2', kind: 'CUSTOMER' }] }),
      ),
    ).toBe('p2');
  });
});

describe('rule 4: keys that point at two parties', () => {
  it('refuses with 409 on every field that named a party', () => {
    const pushed = push({ id: 'p1', external_refs: [{ external_ref: 'a', external_ref_company: 'crm' }] });
    expect(
      problemsOf(() =>
        matchParty(
          pushed,
          candidates({
            party: { id: 'p1', kind: 'CUSTOMER' },
            refOwners: [{ ref: refA, partyId: 'p2', kind: 'CUSTOMER' }],
          }),
        ),
      ),
    ).toEqual({
      type: 'Conflict',
      targets: ['prospect.id conflict_parties', 'prospect.external_refs.0 conflict_parties'],
    });
  });

  it("refuses a company's external ref pushed as a customer", () => {
    const pushed = push({ external_refs: [{ external_ref: 'a', external_ref_company: 'crm' }] });
    expect(
      problemsOf(() => matchParty(pushed, candidates({ refOwners: [{ ref: refA, partyId: 'p2', kind: 'COMPANY' }] }))),
    ).toMatchObject({ type: 'Conflict' });
  });

  it('refuses a merged email + birth + address another party holds, on the field the caller names', () => {
    expect(
      problemsOf(() => matchKeyConflict('p1', 'p2', { target: 'prospect.email', subject: 'CustomerLead' })),
    ).toEqual({ type: 'Conflict', targets: ['prospect.email conflict_parties'] });
    expect(() => matchKeyConflict('p1', 'p1', { target: 'prospect.email', subject: 'CustomerLead' })).not.toThrow();
    expect(() =>
      matchKeyConflict('p1', undefined, { target: 'prospect.email', subject: 'CustomerLead' }),
    ).not.toThrow();
  });
});

describe('rule 5: a prospect.id that names no party', () => {
  it('is 422 on prospect.id, for an unknown party and for a party of the other kind', () => {
    expect(problemsOf(() => matchParty(push({ id: 'p9' }), candidates()))).toEqual({
      type: 'ValidationError',
      targets: ['prospect.id unknown_reference'],
    });
    expect(
      problemsOf(() => matchParty(push({ id: 'p1' }), candidates({ party: { id: 'p1', kind: 'COMPANY' } }))),
    ).toEqual({ type: 'ValidationError', targets: ['prospect.id unknown_reference'] });
  });
});
