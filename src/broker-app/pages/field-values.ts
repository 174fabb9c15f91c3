// How a stored field reads on a page: dates and amounts in the user's locale, enumeration
// values in their words, an address on one line, a party by its name. Labels come from the
// field's name.
import { parseDecimal } from '../formatting/decimal.ts';
import { html, type Html } from '../../html/html.ts';
import type { PageContext } from './layout.ts';
import { hasText } from '../texts/index.ts';

const DATE_FIELDS = new Set(['birth', 'first_registration']);
const MONEY_FIELDS = new Set(['value', 'premium']);
/** Enumerated fields and the prefix of their values' texts (policy and residence types share `type_`). */
const ENUMERATION_PREFIXES: Readonly<Record<string, string>> = {
  payment_interval: 'interval_',
  type: 'type_',
  gender: 'gender_',
  fuel_type: 'fuel_',
};

/** A party by name: a company's name, a person's first and last name. */
export function displayName(type: string, fields: Record<string, unknown>): string {
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  return type === 'COMPANY' ? text(fields.name) : `${text(fields.first_name)} ${text(fields.last_name)}`.trim();
}

export function formatAddress(value: unknown): string {
  if (typeof value !== 'object' || value === null) return '';
  const a = value as Record<string, unknown>;
  const text = (part: unknown) => (typeof part === 'string' || typeof part === 'number' ? String(part) : '');
  const street = [text(a.street), text(a.housenr), a.boxnr ? `bus ${text(a.boxnr)}` : ''].filter(Boolean).join(' ');
  return [street, [text(a.zipcode), text(a.city)].filter(Boolean).join(' '), text(a.country_code)]
    .filter(Boolean)
    .join(', ');
}

/** A field's value as text for the page. */
export function formatValue(context: PageContext, field: string, value: unknown): string {
  const { t, formats } = context;
  if (value === null || value === undefined || value === '') return t('notGiven');
  if (field === 'address') return formatAddress(value);
  if (field === 'external_label' && typeof value === 'object') {
    const label = value as { label?: unknown; type?: unknown };
    return `${String(label.label ?? '')} (${String(label.type ?? '')})`;
  }
  if (typeof value === 'string' && DATE_FIELDS.has(field)) return formats.date(value);
  if (MONEY_FIELDS.has(field)) {
    const amount = parseDecimal(value);
    if (amount !== undefined) return formats.money(amount);
  }
  if (typeof value === 'number') {
    if (field === 'insured_value') return formats.money(parseDecimal(value) ?? 0n);
    // A year is a name, not a quantity: no thousands separator.
    return field === 'construction_year' ? String(value) : formats.number(value);
  }
  if (typeof value === 'string') {
    if (field === 'language') return formats.language(value);
    const key = `${ENUMERATION_PREFIXES[field] ?? ''}${value}`;
    return field in ENUMERATION_PREFIXES && hasText(key) ? t(key) : value;
  }
  return JSON.stringify(value);
}

export function fieldLabel(context: PageContext, field: string): string {
  const key = `field_${field}`;
  return hasText(key) ? context.t(key) : field;
}

/** A definition list of the fields present, in the order given, then any others. */
export function fieldList(context: PageContext, data: Record<string, unknown>, order: readonly string[]): Html {
  const keys = [
    ...order.filter((key) => Object.hasOwn(data, key)),
    ...Object.keys(data)
      .filter((key) => !order.includes(key))
      .sort(),
  ];
  const items = keys.map((key) => {
    const value = data[key];
    let shown: Html | string = formatValue(context, key, value);
    if (key === 'email' && typeof value === 'string') shown = html`<a href="mailto:${value}">${value}</a>`;
    if (key === 'telephonenr' && typeof value === 'string')
      shown = html`<a href="tel:${value.replace(/[^+\d]/g, '')}">${value}</a>`;
    return html`<dt>${fieldLabel(context, key)}</dt><dd>${shown}</dd>`;
  });
  return html`<dl class="fields">${items}</dl>`;
}
