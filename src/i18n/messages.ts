// Renders a Problem as a message in one of the supported languages (docs/design.md section 3).
// Targets and types are never translated; only the message text is.
import type { Problem } from '../errors.ts';
import type { Catalogue } from './catalogue.ts';
import { de } from './de.ts';
import { en } from './en.ts';
import { fr } from './fr.ts';
import { nl } from './nl.ts';

const catalogues = { en, nl, fr, de } as const satisfies Record<string, Catalogue>;

export type Language = keyof typeof catalogues;

export const DEFAULT_LANGUAGE: Language = 'en';

/** The supported language for a tag such as `nl`, `nl-BE` or `FR`; undefined when none. */
export function supportedLanguage(tag: string | undefined): Language | undefined {
  const primary = tag?.trim().split(/[-_]/)[0]?.toLowerCase();
  return primary !== undefined && Object.hasOwn(catalogues, primary) ? (primary as Language) : undefined;
}

/**
 * The language to answer in: the SSO user's own language when we support it, else the
 * best supported entry of Accept-Language (RFC 9110 section 12.5.4, q-values honoured),
 * else English.
 */
export function chooseLanguage(userLanguage: string | undefined, acceptLanguage: string | undefined): Language {
  return supportedLanguage(userLanguage) ?? fromAcceptLanguage(acceptLanguage) ?? DEFAULT_LANGUAGE;
}

function fromAcceptLanguage(header: string | undefined): Language | undefined {
  if (!header) return undefined;
  const ranges = header
    .split(',')
    .map((entry, index) => {
      const [tag = '', ...parameters] = entry.split(';').map((part) => part.trim());
      const q = parameters.find((parameter) => /^q=/i.test(parameter));
      const weight = q === undefined ? 1 : Number(q.slice(2));
      return { tag, weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((range) => range.tag !== '' && range.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  for (const { tag } of ranges) {
    // `*` accepts anything, so our default serves it.
    const language = tag === '*' ? DEFAULT_LANGUAGE : supportedLanguage(tag);
    if (language) return language;
  }
  return undefined;
}

/** `<field>` of the messages: the last non-numeric segment of the target. */
export function fieldOf(target: string): string {
  const segments = target.split('.').filter((segment) => segment !== '' && !/^\d+$/.test(segment));
  return segments.at(-1) ?? '';
}

export function renderMessage(problem: Problem, language: Language): string {
  const catalogue = catalogues[language];
  const values = { ...problem.params, field: fieldOf(problem.target) };
  // A value refused for its form keeps the specification's sentence and names the form.
  if (problem.code === 'invalid' && problem.expected !== undefined) {
    return fillPlaceholders(catalogue.invalid_form, { ...values, expected: catalogue.forms[problem.expected] });
  }
  return fillPlaceholders(catalogue[problem.code], values);
}

/**
 * Fills `{name}` placeholders (API messages and the sign-in pages); a name without a value
 * stays as written. Nothing is escaped: whoever shows the text does that.
 */
export function fillPlaceholders(text: string, values: Readonly<Record<string, string | number>>): string {
  return text.replace(/\{(\w+)\}/g, (placeholder, name: string) =>
    Object.hasOwn(values, name) ? String(values[name]) : placeholder,
  );
}
