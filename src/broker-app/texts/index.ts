// The broker app's texts per language, and the one function pages use to read them.
import { fillPlaceholders, type Language } from '../../i18n/messages.ts';
import { de } from './de.ts';
import { en, type Texts } from './en.ts';
import { fr } from './fr.ts';
import { nl } from './nl.ts';

const TEXTS: Readonly<Record<Language, Texts>> = { en, nl, fr, de };

export type TextKey = keyof Texts;
export type Translate = (key: TextKey, values?: Readonly<Record<string, string | number>>) => string;

export function translator(language: Language): Translate {
  const texts = TEXTS[language];
  return (key, values = {}) => fillPlaceholders(texts[key], values);
}

/** For labels named by data (field names, enumeration values): the key when the catalogue has it. */
export function hasText(key: string): key is TextKey {
  return Object.hasOwn(en, key);
}
