import { describe, expect, it } from 'vitest';
import { pageLanguage } from './language.ts';

describe('pageLanguage', () => {
  it.each([
    ['fr-BE en', 'nl', 'fr'],
    ['es nl', 'de', 'nl'],
    ['es', 'de-CH, en;q=0.5', 'de'],
    [undefined, 'es, fr;q=0.8', 'fr'],
    [undefined, undefined, 'en'],
    [['nl'], undefined, 'en'],
  ])('ui_locales %j with Accept-Language %j speaks %s', (uiLocales, acceptLanguage, expected) => {
    expect(pageLanguage(uiLocales, acceptLanguage)).toBe(expected);
  });
});
