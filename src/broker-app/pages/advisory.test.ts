import { describe, expect, it } from 'vitest';
import { advisoryOf } from './advisory.ts';
import { decimalText } from '../formatting/decimal.ts';

const PACKAGE = '3f0c9a43-4f6e-4c9b-9a57-2f1d1c8b7e01';

describe('the advisory: yearly premiums per package, insurer and in total', () => {
  it('normalises every interval to a year and sums exactly', () => {
    const advisory = advisoryOf({
      policy_packages: [{ id: PACKAGE, name: 'Gezin', insurance_company: 'AG' }],
      insurance_policies: [
        {
          id: 'p1',
          name: 'Auto',
          policy_package_id: PACKAGE,
          premium: '33.33',
          payment_interval: 'MONTHLY',
          coverages: [],
        },
        {
          id: 'p2',
          name: 'Woning',
          policy_package_id: PACKAGE,
          insurance_company: 'Ethias',
          premium: '100.10',
          payment_interval: 'QUARTERLY',
          coverages: [],
        },
        {
          id: 'p3',
          name: 'Rechtsbijstand',
          premium: '0.1',
          payment_interval: 'SEMI_ANNUAL',
          insurance_company: 'AG',
          coverages: [],
        },
        {
          id: 'p4',
          name: 'Familiale',
          insurance_company: 'AG',
          premium: '0.2',
          payment_interval: 'ANNUAL',
          coverages: [],
        },
      ],
    });
    expect(advisory.packages.map((p) => [p.name, decimalText(p.total)])).toEqual([
      ['Gezin', '800.36'],
      [null, '0.40'],
    ]);
    // 33.33 x 12 = 399.96 (AG via the package) + 0.2 + 0.2; 100.10 x 4 = 400.40 (Ethias).
    expect(advisory.insurers.map((i) => [i.insurer, decimalText(i.total)])).toEqual([
      ['AG', '400.36'],
      ['Ethias', '400.40'],
    ]);
    expect(decimalText(advisory.total)).toBe('800.76');
  });

  it('lists offers and terminated policies without counting them, and sums coverages when the policy has no premium', () => {
    const advisory = advisoryOf({
      policy_packages: [],
      insurance_policies: [
        { id: 'o', type: 'OFFER', premium: '500', payment_interval: 'ANNUAL', coverages: [] },
        { id: 't', type: 'TERMINATED', premium: '50', payment_interval: 'MONTHLY', coverages: [] },
        {
          id: 'c',
          type: 'ACTIVE',
          payment_interval: 'MONTHLY',
          coverages: [{ premium: '10.005' }, { premium: '1', payment_interval: 'ANNUAL' }],
        },
      ],
    });
    const lines = advisory.packages[0]!.lines;
    expect(
      lines.map((line) => [line.id, line.counted, line.yearly === undefined ? null : decimalText(line.yearly)]),
    ).toEqual([
      ['o', false, '500.00'],
      ['t', false, '600.00'],
      ['c', true, '121.06'],
    ]);
    expect(decimalText(advisory.total)).toBe('121.06');
  });

  it('counts a package premium when its policies carry none, and takes a premium without interval as yearly', () => {
    const advisory = advisoryOf({
      policy_packages: [{ id: PACKAGE, name: 'Pakket', premium: '1200', payment_interval: null }],
      insurance_policies: [{ id: 'p', policy_package_id: PACKAGE, coverages: [] }],
    });
    const line = advisory.packages[0]!.lines.find((l) => l.kind === 'package')!;
    expect([decimalText(line.yearly!), line.intervalAssumed]).toEqual(['1200.00', true]);
    expect(decimalText(advisory.total)).toBe('1200.00');
  });
});
