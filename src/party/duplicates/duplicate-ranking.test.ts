// One item per other party, its reasons and score, strongest first.
import { describe, expect, it } from 'vitest';
import { MAX_DUPLICATES, rankDuplicates, type SharedKey, withReasons } from './duplicate-ranking.ts';

/** As the look-up ranks them: the keys that give a reason, with it. */
const rank = (keys: readonly SharedKey[]) => rankDuplicates(withReasons(keys));

const key = (partyId: string, kind: SharedKey['kind'], name: string | null = null, ownName: string | null = null) => ({
  partyId,
  leadId: `lead-${partyId}`,
  kind,
  name,
  ownName,
  displayName: `Name ${partyId}`,
});

describe('rankDuplicates', () => {
  it('joins the keys one party shares into its reasons, and lists the strongest first', () => {
    expect(
      rank([key('b', 'telephone'), key('a', 'birth', 'jan peters', 'jan peeters'), key('b', 'email'), key('c', 'vin')]),
    ).toEqual([
      { party_id: 'b', lead_id: 'lead-b', reasons: ['email', 'telephone'], score: 70, name: 'Name b' },
      { party_id: 'c', lead_id: 'lead-c', reasons: ['vin'], score: 30, name: 'Name c' },
      { party_id: 'a', lead_id: 'lead-a', reasons: ['birth_and_name'], score: 20, name: 'Name a' },
    ]);
  });

  it('does not list a shared birth date whose names are not close', () => {
    expect(rank([key('a', 'birth', 'jan janssens', 'jan peeters')])).toEqual([]);
  });

  it('scores at most 100 and lists at most MAX_DUPLICATES parties', () => {
    const all = rank([key('a', 'email'), key('a', 'telephone'), key('a', 'vin'), key('a', 'enterprise_nr')]);
    expect(all[0]!.score).toBe(100);
    const many = Array.from({ length: MAX_DUPLICATES + 5 }, (_, i) => key(`p${i}`, 'email'));
    expect(rank(many)).toHaveLength(MAX_DUPLICATES);
  });
});
