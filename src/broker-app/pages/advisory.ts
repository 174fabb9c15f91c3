// The advisory's arithmetic (docs/design.md section 7): every premium normalised to a yearly
// amount (ANNUAL x1, SEMI_ANNUAL x2, QUARTERLY x4, MONTHLY x12), exactly, then summed per
// package, per insurer and overall. Offers and terminated policies are listed but not
// counted: they are not what the customer pays. A policy without a premium of its own
// counts its coverages' premiums, each shown with its own interval. A package with a
// premium of its own is what the customer pays for it, the amount the lead page shows
// (section 13): its policies are listed as included, and where their sum differs from the
// package premium the page says by how much. A premium without a payment interval is taken
// as yearly, and says so.
import type { PAYMENT_INTERVALS } from '../../party/index.ts';
import { type Decimal, parseDecimal, sum, ZERO } from '../formatting/decimal.ts';

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

/** A coverage's premium, when its policy has none of its own. */
export interface AdvisoryPart {
  readonly name: string | null;
  readonly premium: Decimal;
  readonly interval: string | null;
  readonly yearly: Decimal;
  readonly intervalAssumed: boolean;
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
  /** Offers and terminated policies are shown, not counted; nor are policies a package premium includes. */
  readonly counted: boolean;
  /** Counted in its package's own premium instead. */
  readonly inPackagePremium: boolean;
  readonly type: string | null;
  /** Where the yearly amount comes from its coverages: each of them. */
  readonly parts: readonly AdvisoryPart[];
}

export interface Advisory {
  readonly packages: ReadonlyArray<{
    readonly id: string | null;
    readonly name: string | null;
    readonly lines: readonly AdvisoryLine[];
    readonly total: Decimal;
    /** With a package premium of its own: the yearly sum of the running policies it includes (undefined when none is priced). */
    readonly policiesTotal: Decimal | undefined;
  }>;
  readonly insurers: ReadonlyArray<{ readonly insurer: string | null; readonly total: Decimal }>;
  readonly total: Decimal;
}

function nameOf(input: AdvisoryInput, id: string | null): string | null {
  const pkg = input.policy_packages.find((p) => p.id === id);
  return pkg ? (pkg.name ?? pkg.package_nr ?? null) : null;
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
  const coverageParts =
    parseDecimal(policy.premium) !== undefined
      ? []
      : policy.coverages.flatMap((coverage) => {
          const part = yearly(coverage, policy.payment_interval);
          return part.yearly === undefined
            ? []
            : [
                {
                  name: (coverage as { name?: string | null }).name ?? null,
                  premium: part.premium!,
                  interval: part.interval,
                  yearly: part.yearly,
                  intervalAssumed: part.assumed,
                },
              ];
        });
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
    inPackagePremium: false,
    type: policy.type ?? null,
    parts: coverageParts,
  };
}

export function advisoryOf(input: AdvisoryInput): Advisory {
  const groups = [
    ...input.policy_packages.map((pkg) => ({ pkg, id: pkg.id as string | null })),
    { pkg: undefined, id: null },
  ];
  const packages = groups
    .map(({ pkg, id }) => {
      const policyLines = input.insurance_policies
        .filter((policy) => (policy.policy_package_id ?? null) === id)
        .map((policy) => policyLine(policy, pkg));
      const running = policyLines.filter((line) => line.counted && line.yearly !== undefined);
      const own = pkg ? yearly(pkg) : undefined;
      if (!pkg || own?.yearly === undefined) {
        return {
          id,
          name: null as string | null,
          lines: policyLines,
          total: sum(running.map((l) => l.yearly!)),
          policiesTotal: undefined,
        };
      }
      // The package's own premium is what is paid for it: its policies are included in it.
      const packageLine: AdvisoryLine = {
        id: pkg.id,
        kind: 'package',
        name: pkg.name ?? pkg.package_nr ?? null,
        insurer: pkg.insurance_company ?? null,
        premium: own.premium,
        interval: own.interval,
        yearly: own.yearly,
        intervalAssumed: own.assumed,
        counted: true,
        inPackagePremium: false,
        type: null,
        parts: [],
      };
      const included = policyLines.map((line) =>
        line.counted ? { ...line, counted: false, inPackagePremium: true } : line,
      );
      return {
        id,
        name: null as string | null,
        lines: [...included, packageLine],
        total: own.yearly,
        policiesTotal: running.length > 0 ? sum(running.map((l) => l.yearly!)) : undefined,
      };
    })
    .map((group) => ({ ...group, name: nameOf(input, group.id) }))
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
