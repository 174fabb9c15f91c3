// Exact decimal sums for premiums and insured values. Money arrives as numeric text with
// at most 6 decimals (NumericText in lead.schema.ts) and the advisory only adds amounts and
// multiplies them by whole numbers (payment intervals per year), so a BigInt count of
// millionths is exact for all of it; no rounding or division is ever needed, which is
// why no decimal library is pulled in.
const SCALE = 6;
const UNIT = 10n ** BigInt(SCALE);
const NUMERIC = /^(-?)(\d+)(?:\.(\d{1,6}))?$/;

/** An exact decimal, as millionths. */
export type Decimal = bigint;

export const ZERO: Decimal = 0n;

/** The decimal a numeric text names; undefined when it is not one. */
export function parseDecimal(text: unknown): Decimal | undefined {
  if (typeof text === 'number' && Number.isFinite(text)) text = String(text);
  if (typeof text !== 'string') return undefined;
  const match = NUMERIC.exec(text.trim());
  if (!match) return undefined;
  const [, sign, whole, fraction = ''] = match;
  const value = BigInt(whole!) * UNIT + BigInt(fraction.padEnd(SCALE, '0'));
  return sign === '-' ? -value : value;
}

/** Plain text with at least two decimals and no trailing zeros beyond: `1199.4`, `-0.05` -> `1199.40`, `-0.05`. */
export function decimalText(value: Decimal): string {
  const negative = value < 0n;
  const magnitude = negative ? -value : value;
  const whole = magnitude / UNIT;
  const fraction = (magnitude % UNIT).toString().padStart(SCALE, '0').replace(/0+$/, '').padEnd(2, '0');
  return `${negative ? '-' : ''}${whole}.${fraction}`;
}

export function sum(values: readonly Decimal[]): Decimal {
  return values.reduce((total, value) => total + value, ZERO);
}
