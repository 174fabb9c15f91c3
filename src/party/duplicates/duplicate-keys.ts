// The normalised keys a party is found by as a possible duplicate (docs/api.md, "Possible duplicates"):
// its e-mail in lower case, its telephone number in E.164 (libphonenumber-js, Belgium when
// the number has no country code, so `0470 12 34 56` and `+32 470 123456` are one key), its
// cars' VINs, its enterprise number's ten digits, and a customer's birth date with the start
// of each of its names (birthKeys; the folded name beside it, a close name being compared, not
// looked up: closeNames). They are kept with the party in `party_duplicate_keys`, written by
// the write that changes them, and an index finds the parties that share one, so the look-up
// costs the same at any number of parties.
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { enterpriseNumberDigits } from '../../reference/enterprises/enterprise-number.ts';
import { textWords } from '../../reference/search/search-text.ts';
import type { Document, LeadAggregate } from '../model/party.aggregate.ts';

export const DUPLICATE_KEY_KINDS = ['email', 'telephone', 'vin', 'enterprise_nr', 'birth'] as const;
export type DuplicateKeyKind = (typeof DUPLICATE_KEY_KINDS)[number];

export interface DuplicateKey {
  readonly kind: DuplicateKeyKind;
  readonly key: string;
  /** The folded `first last` name of a `birth` key, which a close name is compared with; else null. */
  readonly name: string | null;
}

/** The region a number without a country code is read in: the service's partners are Belgian. */
const DEFAULT_REGION = 'BE';

/** The party's keys, each once. */
export function duplicateKeysOf(lead: LeadAggregate): DuplicateKey[] {
  return unique([...fieldKeys(lead.fields), ...vinKeys(lead)]);
}

/** The keys of a stored party from its fields and its live cars' VINs, as duplicateKeysOf gives them. */
export function storedDuplicateKeys(fields: Document, vins: readonly string[]): DuplicateKey[] {
  return unique([...fieldKeys(fields), ...vins.map((vin) => ({ kind: 'vin', key: vin, name: null }) as const)]);
}

/**
 * The keys to store after a write that turned `stored` into `merged`: the party's whole set
 * when it differs from the stored one (or the party is new), undefined when it is the same.
 * The stored telephone number is never read again: the same text is the same key, and a
 * number whose text changed counts as a changed key, so the set is written again even when
 * the new text is the same number written another way. That write costs less than reading
 * the stored number (libphonenumber-js, about 5 µs a number), which every push that changes
 * a number (scenario (c) of docs/benchmarks.md) would pay; the stored keys are the same.
 */
export function changedDuplicateKeys(
  stored: LeadAggregate | undefined,
  merged: LeadAggregate,
): readonly DuplicateKey[] | undefined {
  if (stored === undefined) return duplicateKeysOf(merged);
  if (stored.fields === merged.fields && stored.riskObjects === merged.riskObjects) return undefined;
  if (stored.fields.telephonenr !== merged.fields.telephonenr) return duplicateKeysOf(merged);
  // The telephone's key is the same: the other keys tell, and they cost no parse.
  const before = [...fieldKeys(stored.fields, false), ...vinKeys(stored)];
  const after = [...fieldKeys(merged.fields, false), ...vinKeys(merged)];
  return sameKeys(before, after) ? undefined : duplicateKeysOf(merged);
}

/** The keys of the prospect's fields; without the telephone's when `withTelephone` is false. */
function fieldKeys(fields: Document, withTelephone = true): DuplicateKey[] {
  const keys: DuplicateKey[] = [];
  const email = typeof fields.email === 'string' ? fields.email.trim().toLowerCase() : '';
  if (email !== '') keys.push({ kind: 'email', key: email, name: null });
  const telephone = withTelephone && typeof fields.telephonenr === 'string' ? e164(fields.telephonenr) : undefined;
  if (telephone !== undefined) keys.push({ kind: 'telephone', key: telephone, name: null });
  const enterprise =
    typeof fields.enterprise_nr === 'string' ? enterpriseNumberDigits(fields.enterprise_nr) : undefined;
  if (enterprise !== undefined) keys.push({ kind: 'enterprise_nr', key: enterprise, name: null });
  if (typeof fields.birth === 'string') keys.push(...birthKeys(fields.birth, foldedName(fields)));
  return keys;
}

/** How many letters of a name's word a birth key holds. */
export const NAME_START = 2;

/**
 * A customer's birth keys: the birth date with the first NAME_START letters of each word of
 * the folded name (`1971-03-02|ja`, `1971-03-02|pe` for Jan Peeters), each once, the whole
 * name beside them. A million people share a birth date some 34 at a time; keyed by the date
 * alone, every look-up read them all to compare names. Two names close enough to list
 * (closeNames: at most two edits, first and last either way) share the start of a word unless
 * the edits fall in the first letters of every word ("Jan Peeters" and "Yan Beeters"), which
 * are not listed.
 */
export function birthKeys(birth: string, name: string): DuplicateKey[] {
  const starts = new Set(
    name.split(' ').flatMap((word) => (word === '' ? [] : [[...word].slice(0, NAME_START).join('')])),
  );
  return [...starts].map((start) => ({ kind: 'birth', key: `${birth}|${start}`, name }) as const);
}

function vinKeys(lead: LeadAggregate): DuplicateKey[] {
  return lead.riskObjects.flatMap((object) =>
    object.vin === null ? [] : [{ kind: 'vin', key: object.vin, name: null } as const],
  );
}

/** A telephone number in E.164 (`+32470123456`), or undefined when it cannot be one. */
export function e164(text: string): string | undefined {
  const number = parsePhoneNumberFromString(text, DEFAULT_REGION);
  return number?.isPossible() ? number.number : undefined;
}

/** A customer's `first last`, folded (no accents, lower case), words separated by one space. */
export function foldedName(fields: Document): string {
  const words = [fields.first_name, fields.last_name].flatMap((part) =>
    typeof part === 'string' ? textWords(part) : [],
  );
  return words.join(' ');
}

const identity = (key: DuplicateKey) => `${key.kind}\u0000${key.key}\u0000${key.name ?? ''}`;

function unique(keys: DuplicateKey[]): DuplicateKey[] {
  const seen = new Map(keys.map((key) => [`${key.kind}\u0000${key.key}`, key]));
  return [...seen.values()];
}

function sameKeys(a: readonly DuplicateKey[], b: readonly DuplicateKey[]): boolean {
  if (a.length !== b.length) return false;
  const left = new Set(a.map(identity));
  return b.every((key) => left.has(identity(key)));
}
