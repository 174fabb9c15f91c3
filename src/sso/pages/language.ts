// Which language a sign-in page speaks: the client's `ui_locales` (OpenID Connect Core
// 1.0 section 3.1.2.1, space-separated, in order of preference) when we have one of them,
// else the browser's Accept-Language, else English.
import { chooseLanguage, supportedLanguage, type Language } from '../../i18n/messages.ts';
import type { PageCatalogue } from './texts/catalogue.ts';
import { de } from './texts/de.ts';
import { en } from './texts/en.ts';
import { fr } from './texts/fr.ts';
import { nl } from './texts/nl.ts';

const CATALOGUES: Readonly<Record<Language, PageCatalogue>> = { en, nl, fr, de };

export const PAGE_LANGUAGES = Object.keys(CATALOGUES) as Language[];

export function pageLanguage(uiLocales: unknown, acceptLanguage: string | undefined): Language {
  const requested = typeof uiLocales === 'string' ? uiLocales.split(' ') : [];
  const fromUiLocales = requested.map(supportedLanguage).find((language) => language !== undefined);
  return chooseLanguage(fromUiLocales, acceptLanguage);
}

export function catalogueFor(language: Language): PageCatalogue {
  return CATALOGUES[language];
}
