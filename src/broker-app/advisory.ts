// The advisory's arithmetic (docs/design.md section 7): every premium normalised to a yearly
// amount (ANNUAL x1, SEMI_ANNUAL x2, QUARTERLY x4, MONTHLY x12), exactly, then summed per
// package, per insurer and overall. Offers and terminated policies are listed but not
// counted: they are not what the customer pays. A policy without a premium of its own
// counts its coverages' premiums; a package whose policies carry no premium counts the
// package's own. A premium without a payment interval is taken as yearly, and says so.
import type { PAYMENT_INTERVALS } from '../party/index.ts';
import { type Decimal, parseDecimal, sum, ZERO } from './decimal.ts';

type Interval = (typeof PAYMENT_INTERVALS)[number];

export const PAYMENTS_PER_YEAR: Readonly<Record<Interval, bigint>> = {
  ANNUAL: 1n,
  SEMI_ANNUAL: 2n,
  QUARTERLY: 4n,
  MONTHLY: 12n,
};

interface Priced {
  readonly premium?: string | null;
  readonly payment_interval?: string | null;
}

export interface AdvisoryInput {
  readonly policy_packages: ReadonlyArray<
    Priced & {
      readonly id: string;
      readonly name?: string | null;
      readonly package_nr?: string | null;
      readonly insurance_company?: string | null;
    }
  >;
  readonly insurance_policies: ReadonlyArray<
    Priced & {
      readonly id: string;
      readonly name?: string | null;
      readonly policy_nr?: string | null;
      readonly type?: string | null;
      readonly insurance_company?: string | null;
      readonly policy_package_id?: string | null;
      readonly coverages: ReadonlyArray<Priced>;
    }
  >;
}

export interface AdvisoryLine {
  readonly id: string;
  readonly kind: 'policy' | 'package';
  readonly name: string | null;
  readonly insurer: string | null;
  /** The premium as stored, per its own interval. */
  readonly premium: Decimal | undefined;
  readonly interval: string | null;
  readonly yearly: Decimal | undefined;
  readonly intervalAssumed: boolean;
  /** Offers and terminated policies are shown, not counted. */
  readonly counted: boolean;
  readonly type: string | null;
}

export interface Advisory {
  readonly packages: ReadonlyArray<{
    readonly id: string | null;
    readonly name: string | null;
    readonly lines: readonly AdvisoryLine[];
    readonly total: Decimal;
  }>;
  readonly insurers: ReadonlyArray<{ readonly insurer: string | null; readonly total: Decimal }>;
  readonly total: Decimal;
}

function yearly(
  item: Priced,
  fallbackInterval?: string | null,
): { premium?: Decimal; yearly?: Decimal; interval: string | null; assumed: boolean } {
  const premium = parseDecimal(item.premium);
  if (premium === undefined) return { interval: null, assumed: false };
  const interval = item.payment_interval ?? fallbackInterval ?? null;
  const factor =
    interval !== null && Object.hasOwn(PAYMENTS_PER_YEAR, interval)
      ? PAYMENTS_PER_YEAR[interval as Interval]
      : undefined;
  return { premium, yearly: premium * (factor ?? 1n), interval, assumed: factor === undefined };
}

function policyLine(
  policy: AdvisoryInput['insurance_policies'][number],
  pkg: AdvisoryInput['policy_packages'][number] | undefined,
): AdvisoryLine {
  let priced = yearly(policy);
  if (priced.yearly === undefined) {
    const parts = policy.coverages
      .map((coverage) => yearly(coverage, policy.payment_interval))
      .filter((part) => part.yearly !== undefined);
    if (parts.length > 0) {
      priced = {
        yearly: sum(parts.map((part) => part.yearly!)),
        interval: 'ANNUAL',
        assumed: parts.some((part) => part.assumed),
      };
    }
  }
  return {
    id: policy.id,
    kind: 'policy',
    name: policy.name ?? policy.policy_nr ?? null,
    insurer: policy.insurance_company ?? pkg?.insurance_company ?? null,
    premium: priced.premium,
    interval: priced.interval,
    yearly: priced.yearly,
    intervalAssumed: priced.assumed,
    counted: policy.type !== 'OFFER' && policy.type !== 'TERMINATED',
    type: policy.type ?? null,
  };
}

export function advisoryOf(input: AdvisoryInput): Advisory {
  const groups = [
    ...input.policy_packages.map((pkg) => ({ pkg, id: pkg.id as string | null })),
    { pkg: undefined, id: null },
  ];
  const packages = groups
    .map(({ pkg, id }) => {
      const lines = input.insurance_policies
        .filter((policy) => (policy.policy_package_id ?? null) === id)
        .map((policy) => policyLine(policy, pkg));
      if (pkg && !lines.some((line) => line.yearly !== undefined)) {
        const priced = yearly(pkg);
        if (priced.yearly !== undefined) {
          lines.push({
            id: pkg.id,
            kind: 'package',
            name: pkg.name ?? pkg.package_nr ?? null,
            insurer: pkg.insurance_company ?? null,
            premium: priced.premium,
            interval: priced.interval,
            yearly: priced.yearly,
            intervalAssumed: priced.assumed,
            counted: true,
            type: null,
          });
        }
      }
      const total = sum(lines.filter((line) => line.counted && line.yearly !== undefined).map((line) => line.yearly!));
      return { id, name: pkg ? (pkg.name ?? pkg.package_nr ?? null) : null, lines, total };
    })
    .filter((group) => group.id !== null || group.lines.length > 0);
  const byInsurer = new Map<string | null, Decimal>();
  for (const line of packages.flatMap((group) => group.lines)) {
    if (!line.counted || line.yearly === undefined) continue;
    byInsurer.set(line.insurer, (byInsurer.get(line.insurer) ?? ZERO) + line.yearly);
  }
  const insurers = [...byInsurer]
    .map(([insurer, total]) => ({ insurer, total }))
    .sort((a, b) => (a.insurer ?? '\uffff').localeCompare(b.insurer ?? '\uffff'));
  return { packages, insurers, total: sum(packages.map((group) => group.total)) };
}
