// The pages' formatters are kept per locale, for at most FORMAT_CACHE_SIZE locales.
import { expect, it } from 'vitest';
import { cachedFormatLocales, FORMAT_CACHE_SIZE, formats } from './page-context.ts';

it(`keeps formatters for at most ${FORMAT_CACHE_SIZE} locales`, () => {
  const locales = Intl.DateTimeFormat.supportedLocalesOf(
    ['nl', 'fr', 'de', 'en'].flatMap((language) =>
      [
        'BE',
        'NL',
        'FR',
        'DE',
        'LU',
        'CH',
        'AT',
        'CA',
        'US',
        'GB',
        'IE',
        'AU',
        'NZ',
        'ZA',
        'IN',
        'SR',
        'AW',
        'CW',
        'SX',
        'BQ',
        'MC',
        'SN',
        'CI',
        'CM',
        'MA',
        'DZ',
        'TN',
        'HT',
        'LI',
        'IT',
        'BF',
        'ML',
        'NE',
        'TG',
        'BJ',
        'GA',
        'CG',
        'CD',
        'MG',
        'RW',
        'BI',
        'DJ',
        'KM',
        'MU',
        'SC',
        'VU',
        'PF',
        'NC',
        'RE',
        'GP',
        'MQ',
        'GF',
        'YT',
        'PM',
        'BL',
        'MF',
        'WF',
        'GQ',
        'CF',
        'TD',
        'GN',
        'MR',
        'SY',
      ].map((region) => `${language}-${region}`),
    ),
  );
  expect(locales.length).toBeGreaterThan(FORMAT_CACHE_SIZE);
  const first = formats(locales[0]!);
  for (const locale of locales) {
    formats(locale);
    // A locale in use all along keeps its formatters.
    expect(formats(locales[0]!)).toBe(first);
  }
  expect(cachedFormatLocales()).toBe(FORMAT_CACHE_SIZE);
});
