// What the broker app's inbox search finds a lead by (docs/broker-app.md, "Broker app";
// docs/design.md section 13): the words of its names, e-mail, telephone, address (street,
// postcode, city), enterprise number, external refs (the party's and its policies') and
// VINs, folded as the reference searches fold text (reference/search/search-text.ts). They
// are stored with the lead (`leads.search_words`) whenever a write changes the lead, and a
// word index serves them: FTS5 on SQLite, GIN on PostgreSQL (inbox.repository.ts). A search is
// every query word as the prefix of a word of the lead, or a number written as a telephone
// or enterprise number, found by its digits however it was typed.
import { enterpriseNumberDigits } from '../../reference/enterprises/enterprise-number.ts';
import { fold, queryWords, textWords } from '../../reference/search/search-text.ts';
import type { Document, LeadAggregate } from '../model/party.aggregate.ts';

/** The lead's search words, space-separated, each once, in the order found. */
export function searchWordsOf(lead: LeadAggregate): string {
  const fields = lead.fields;
  const address = (fields.address ?? {}) as Document;
  const texts: unknown[] = [
    fields.first_name,
    fields.last_name,
    fields.name,
    fields.email,
    fields.telephonenr,
    address.street,
    address.zipcode,
    address.city,
    fields.enterprise_nr,
    ...lead.refs.map((ref) => ref.ref),
    ...lead.policies.flatMap((policy) => policy.refs.map((ref) => ref.ref)),
    ...lead.riskObjects.map((object) => object.vin),
  ];
  const words = texts.flatMap((text) => (typeof text === 'string' ? textWords(text) : []));
  if (typeof fields.telephonenr === 'string') words.push(...telephoneForms(fields.telephonenr));
  const enterprise =
    typeof fields.enterprise_nr === 'string' ? enterpriseNumberDigits(fields.enterprise_nr) : undefined;
  if (enterprise !== undefined) words.push(enterprise);
  return [...new Set(words)].join(' ');
}

/**
 * A telephone number by its digits, international (3291234567) and, for a Belgian one,
 * national (091234567) too, so either way of typing it finds it.
 */
function telephoneForms(text: string): string[] {
  const digits = internationalDigits(text);
  if (digits.length < 6) return [];
  return digits.startsWith('32') ? [digits, `0${digits.slice(2)}`] : [digits];
}

/** `+32 9 123 45 67`, `0032 9 …` -> 3291234567; a national `09 123 45 67` stays 091234567. */
function internationalDigits(text: string): string {
  return text.replace(/\D/g, '').replace(/^00/, '');
}

/** A search as terms: every word a prefix (`words`), or else one of `numbers` as a prefix of a stored number. */
export interface SearchTerms {
  readonly words: readonly string[];
  readonly numbers: readonly string[];
}

/** The terms of an inbox search; undefined when it has no word at all. */
export function searchTermsOf(query: string): SearchTerms | undefined {
  const words = queryWords(query);
  if (words.length === 0) return undefined;
  const numbers = new Set<string>();
  const enterprise = enterpriseNumberDigits(query);
  if (enterprise !== undefined) numbers.add(enterprise);
  // Written as a telephone number: digits with at most + ( ) / . - and spaces between.
  if (/^[+\d\s()./-]+$/.test(query.trim())) {
    const digits = internationalDigits(query);
    if (digits.length >= 6) numbers.add(digits);
  }
  return { words, numbers: [...numbers] };
}

/** An FTS5 MATCH expression: words are letters and digits only, and quoted. */
export function ftsMatch(terms: SearchTerms): string {
  const all = terms.words.map((word) => `"${word}"*`).join(' AND ');
  return [`(${all})`, ...terms.numbers.map((number) => `"${number}"*`)].join(' OR ');
}

/** A to_tsquery('simple', ...) text. */
export function tsQuery(terms: SearchTerms): string {
  const all = terms.words.map((word) => `${word}:*`).join(' & ');
  return [`(${all})`, ...terms.numbers.map((number) => `${number}:*`)].join(' | ');
}

/**
 * What the inbox orders the Name column by (`leads.sort_name`, kept with the search words by
 * every write that changes the lead): a company's name, a person's last then first name,
 * folded as the search folds (no accents, lower case); null when there is none.
 */
export function sortNameOf(lead: Pick<LeadAggregate, 'type' | 'fields'>): string | null {
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  const fields = lead.fields;
  const name = lead.type === 'COMPANY' ? text(fields.name) : `${text(fields.last_name)} ${text(fields.first_name)}`;
  return fold(name).replace(/\s+/g, ' ').trim() || null;
}
