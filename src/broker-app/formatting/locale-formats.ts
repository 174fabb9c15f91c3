// How the pages show amounts and times in the user's locale. Amounts are formatted from
// their exact decimal text (Intl.NumberFormat formats a string without turning it into a
// float), so 0.1 + 0.2 shows as 0,30 and never as 0,30000000000000004.
import { decimalText, type Decimal } from './decimal.ts';

/** Leads come from Belgian brokers' platforms: their clocks read Brussels time. */
export const TIME_ZONE = 'Europe/Brussels';

export interface Formats {
  money(value: Decimal): string;
  /** An ISO timestamp as date and time in Brussels. */
  dateTime(iso: string): string;
  /** A calendar date (YYYY-MM-DD), no time zone involved. */
  date(isoDate: string): string;
  number(value: number): string;
  /** A language code (nl) by its name in the page's language (Dutch, Nederlands). */
  language(code: string): string;
}

export function formatsFor(locale: string): Formats {
  const money = new Intl.NumberFormat(locale, {
    style: 'currency',
    currency: 'EUR',
    minimumFractionDigits: 2,
    maximumFractionDigits: 6,
  });
  const dateTime = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: TIME_ZONE });
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' });
  const number = new Intl.NumberFormat(locale, { maximumFractionDigits: 6 });
  const languages = new Intl.DisplayNames([locale], { type: 'language', fallback: 'code' });
  return {
    // The decimal's own text: NumberFormat keeps every digit of a string argument.
    money: (value) => money.format(decimalText(value) as unknown as number),
    dateTime: (iso) => (Number.isNaN(Date.parse(iso)) ? iso : dateTime.format(new Date(iso))),
    date: (isoDate) => (/^\d{4}-\d{2}-\d{2}$/.test(isoDate) ? date.format(new Date(`${isoDate}T00:00:00Z`)) : isoDate),
    number: (value) => number.format(value),
    language: (code) => {
      try {
        return languages.of(code) ?? code;
      } catch {
        return code;
      }
    },
  };
}
