// Stored address rows as the API shows them (docs/design.md section 6): the street and
// place in the language the query fits, with every language's street name beside.
import type { Language } from '../../i18n/messages.ts';
import { fold } from '../search/search-text.ts';
import { type Row, storedText } from '../store/rows.ts';

type AddressLanguage = 'nl' | 'fr' | 'de';

/**
 * The language to show an address in: the one whose street and place names the query's
 * words fit best ("rue de la loi" -> fr), then the caller's, then the region's own.
 */
function addressLanguage(row: Row, words: readonly string[], language: Language): AddressLanguage {
  const candidates = (['nl', 'fr', 'de'] as const).filter((l) => row[`street_${l}`] !== null);
  if (candidates.length <= 1) return candidates[0] ?? (row.region === 'BE-VLG' ? 'nl' : 'fr');
  const score = (l: AddressLanguage) => {
    const names = fold(
      `${row[`street_${l}`] ?? ''} ${row[`municipality_${l}`] ?? ''} ${l !== 'de' ? (row[`postname_${l}`] ?? '') : ''}`,
    ).split(/[^\p{L}\p{N}]+/u);
    return words.filter((word) => names.some((name) => name.startsWith(word))).length;
  };
  const best = Math.max(...candidates.map(score));
  const fitting = candidates.filter((l) => score(l) === best);
  if (fitting.includes(language as AddressLanguage)) return language as AddressLanguage;
  return fitting.includes('nl') && row.region === 'BE-VLG' ? 'nl' : fitting.includes('fr') ? 'fr' : fitting[0]!;
}

export function addressItem(row: Row, language: Language, words: readonly string[] = []) {
  const shown = addressLanguage(row, words, language);
  const pick = (prefix: string) =>
    storedText(row[`${prefix}_${shown}`]) ??
    storedText(row[`${prefix}_nl`]) ??
    storedText(row[`${prefix}_fr`]) ??
    storedText(row[`${prefix}_de`]);
  return {
    id: String(row.id),
    street: pick('street'),
    housenr: storedText(row.housenr),
    boxnr: storedText(row.boxnr),
    zipcode: storedText(row.zipcode),
    municipality: pick('municipality'),
    postname: shown === 'de' ? (storedText(row.postname_fr) ?? storedText(row.postname_nl)) : pick('postname'),
    language: shown,
    lat: row.lat === null ? null : Number(row.lat),
    lon: row.lon === null ? null : Number(row.lon),
    street_names: { nl: storedText(row.street_nl), fr: storedText(row.street_fr), de: storedText(row.street_de) },
  };
}

export function postalCodeItem(row: Row) {
  return {
    zipcode: String(row.zipcode),
    municipality: {
      nl: storedText(row.municipality_nl),
      fr: storedText(row.municipality_fr),
      de: storedText(row.municipality_de),
    },
    postname: { nl: storedText(row.postname_nl), fr: storedText(row.postname_fr) },
    addresses: Number(row.addresses),
  };
}
