import { describe, expect, it } from 'vitest';
import { enterpriseNumberDigits, parseEnterpriseNumber } from './enterprise-number.ts';

describe('enterprise numbers as written', () => {
  it('reads the usual ways of writing one, and nothing else', () => {
    for (const written of [
      '0456.789.123',
      'BE0456789123',
      'be 0456 789 123',
      '456789123',
      '0456-789-123',
      '0456/789/123',
    ]) {
      expect(enterpriseNumberDigits(written), written).toBe('0456789123');
    }
    for (const other of ['claes', '12345', 'BE045678912345', 'CRM-4711'])
      expect(enterpriseNumberDigits(other), other).toBeUndefined();
  });

  it('is read alike by the lookup, which also verifies the mod-97 check', () => {
    // The forms both read are shown end to end in test/enterprise-number-forms.test.ts.
    expect(parseEnterpriseNumber('be 0200/065/765')).toBe('0200065765');
    expect(enterpriseNumberDigits('be 0200/065/765')).toBe('0200065765');
    // Written as a number but failing its check: the inbox still reads it (it finds the number a
    // partner sent), the lookup refuses it.
    expect(enterpriseNumberDigits('0200.065.766')).toBe('0200065766');
    expect(parseEnterpriseNumber('0200.065.766')).toBeUndefined();
  });
});
