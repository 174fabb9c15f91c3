import { describe, expect, it } from 'vitest';
import { firstMatchingRule, type LeadFacts, postcodeMatches, ruleMatches, userOfTurn } from './routing-rule.ts';

const facts = (extra: Partial<LeadFacts> = {}): LeadFacts => ({
  origin: 'web',
  kind: 'CUSTOMER',
  postcode: '1050',
  language: 'nl',
  ...extra,
});
const anyone = { user: '00000000-0000-4000-8000-000000000000' };

describe('postcodeMatches', () => {
  it('takes a range inclusively at both ends, and only numeric postcodes into it', () => {
    expect(postcodeMatches('1000-1299', '1000')).toBe(true);
    expect(postcodeMatches('1000-1299', '1299')).toBe(true);
    expect(postcodeMatches('1000-1299', '1300')).toBe(false);
    expect(postcodeMatches('1000-1299', '999')).toBe(false);
    expect(postcodeMatches('1000-1299', '12AB')).toBe(false);
  });
  it('compares a single code without spaces or case', () => {
    expect(postcodeMatches('9000', '9000')).toBe(true);
    expect(postcodeMatches('1234 AB', '1234ab')).toBe(true);
    expect(postcodeMatches('9000', '9001')).toBe(false);
  });
});

describe('ruleMatches', () => {
  it('matches anything with an empty when', () => {
    expect(ruleMatches({}, facts({ origin: null, postcode: null, language: null }))).toBe(true);
  });
  it('needs every key given to match', () => {
    const when = { origin: ['web'], kind: 'CUSTOMER' as const, postcodes: ['1000-1299'], language: ['nl', 'fr'] };
    expect(ruleMatches(when, facts())).toBe(true);
    expect(ruleMatches(when, facts({ origin: 'crm' }))).toBe(false);
    expect(ruleMatches(when, facts({ kind: 'COMPANY' }))).toBe(false);
    expect(ruleMatches(when, facts({ postcode: '9000' }))).toBe(false);
    expect(ruleMatches(when, facts({ language: 'de' }))).toBe(false);
  });
  it('never matches a key the lead does not have', () => {
    expect(ruleMatches({ origin: ['web'] }, facts({ origin: null }))).toBe(false);
    expect(ruleMatches({ postcodes: ['1000'] }, facts({ postcode: null }))).toBe(false);
    expect(ruleMatches({ language: ['nl'] }, facts({ language: null }))).toBe(false);
  });
});

describe('firstMatchingRule', () => {
  it('takes the first rule that matches, in order', () => {
    const rules = [
      { when: { language: ['fr'] }, assign: anyone },
      { when: { origin: ['web'] }, assign: anyone },
      { when: {}, assign: anyone },
    ];
    expect(firstMatchingRule(rules, facts())).toBe(1);
    expect(firstMatchingRule(rules, facts({ language: 'fr' }))).toBe(0);
    expect(firstMatchingRule(rules, facts({ origin: 'crm' }))).toBe(2);
    expect(firstMatchingRule(rules.slice(0, 2), facts({ origin: 'crm' }))).toBeUndefined();
  });
});

describe('userOfTurn', () => {
  it('gives each of N users one of every N turns, in order', () => {
    const users = ['a', 'b', 'c'];
    expect([1, 2, 3, 4, 5, 6, 7].map((turn) => userOfTurn(users, turn))).toEqual(['a', 'b', 'c', 'a', 'b', 'c', 'a']);
  });
});
