// The language, formats and user of one page: the signed-in user's language (their SSO
// account's), else the browser's Accept-Language, else English (docs/design.md section 7).
import type { FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import { chooseLanguage, type Language } from '../../i18n/messages.ts';
import { type Formats, formatsFor } from '../formatting/locale-formats.ts';
import type { PageContext } from './layout.ts';
import { type AppSession, csrfTokenOf } from '../sign-in/session.ts';
import { translator } from '../texts/index.ts';

/**
 * Intl formatters are costly to build and few locales are in use: built once per locale and
 * kept for this many locales (the users' own, as their SSO accounts say), the least recently
 * used dropped.
 */
export const FORMAT_CACHE_SIZE = 100;
const formatCache = new LRUCache<string, Formats>({ max: FORMAT_CACHE_SIZE });

export function formats(locale: string): Formats {
  let cached = formatCache.get(locale);
  if (!cached) {
    cached = formatsFor(locale);
    formatCache.set(locale, cached);
  }
  return cached;
}

/** Locales whose formatters are kept now. */
export function cachedFormatLocales(): number {
  return formatCache.size;
}

/** The user's locale when it speaks the page's language (nl-BE, fr-BE), else the language in Belgium. */
function localeOf(language: Language, userLocale: string | undefined): string {
  if (
    userLocale &&
    userLocale.split('-')[0]?.toLowerCase() === language &&
    Intl.DateTimeFormat.supportedLocalesOf(userLocale).length > 0
  )
    return userLocale;
  return `${language}-BE`;
}

export function pageContext(request: FastifyRequest, session?: AppSession): PageContext {
  const language = chooseLanguage(session?.user.language, request.headers['accept-language']);
  return {
    language,
    t: translator(language),
    formats: formats(localeOf(language, session?.user.locale)),
    ...(session && { user: { username: session.user.username, csrf: csrfTokenOf(session) } }),
  };
}
