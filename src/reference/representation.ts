// Stored reference rows as the API shows them (docs/design.md section 6): names and places in
// the caller's language where the source has several, codes spelled out.
import type { Language } from '../i18n/messages.ts';
import { formatEnterpriseNumber } from './enterprise-number.ts';
import { fold } from './search-text.ts';
import type { EnterpriseRows, EnterpriseSummaryRows, Row } from './store/reference-store.ts';

const DENOMINATION_LANGUAGE: Readonly<Record<string, string>> = { 1: 'fr', 2: 'nl', 3: 'de', 4: 'en' };
const DENOMINATION_TYPE: Readonly<Record<string, string>> = {
  '001': 'name',
  '002': 'abbreviation',
  '003': 'commercial_name',
  '004': 'branch_name',
};
const ADDRESS_TYPE: Readonly<Record<string, string>> = {
  REGO: 'registered_office',
  BAET: 'establishment',
  ABBR: 'branch',
};
const CONTACT_TYPE: Readonly<Record<string, string>> = { TEL: 'phone', EMAIL: 'email', WEB: 'web', FAX: 'fax' };
const CLASSIFICATION: Readonly<Record<string, string>> = { MAIN: 'main', SECO: 'secondary', ANCI: 'ancillary' };
const STATUS: Readonly<Record<string, string>> = { AC: 'active', ST: 'stopped' };

const text = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));
const digits = (number: unknown) => String(number).padStart(10, '0');

/** The name the caller reads: the 001 denomination in their language, else the first one. */
function nameOf(names: readonly Row[], language: Language): string | null {
  const official = names.filter((name) => name.type === '001');
  const chosen =
    official.find((name) => DENOMINATION_LANGUAGE[String(name.language)] === language) ?? official[0] ?? names[0];
  return text(chosen?.name);
}

/**
 * KBO names places in Dutch and French: the caller's language when it is one of them,
 * else the language of the place (Brussels and Wallonia French, Flanders Dutch, by postcode).
 */
function inLanguage(language: Language, zipcode: unknown, nl: unknown, fr: unknown): string | null {
  const zip = Number(zipcode);
  const french = language === 'fr' || (language !== 'nl' && (zip < 1500 || (zip >= 4000 && zip < 8000)));
  return french ? (text(fr) ?? text(nl)) : (text(nl) ?? text(fr));
}

function enterpriseAddress(row: Row, language: Language) {
  const foreign = row.country_nl !== null || row.country_fr !== null;
  return {
    type: ADDRESS_TYPE[String(row.type)] ?? String(row.type),
    street: inLanguage(language, row.zipcode, row.street_nl, row.street_fr),
    housenr: text(row.housenr),
    boxnr: text(row.boxnr),
    zipcode: text(row.zipcode),
    city: inLanguage(language, row.zipcode, row.municipality_nl, row.municipality_fr),
    country_code: foreign ? null : 'BE',
  };
}

export function enterpriseSummary({ enterprise, names, address }: EnterpriseSummaryRows, language: Language) {
  const number = digits(enterprise.number);
  return {
    enterprise_number: formatEnterpriseNumber(number),
    vat_number: `BE${number}`,
    name: nameOf(names, language),
    abbreviation: text(names.find((name) => name.type === '002')?.name),
    status: STATUS[String(enterprise.status)] ?? text(enterprise.status),
    type: enterprise.type_of_enterprise === '1' ? 'natural_person' : 'legal_person',
    juridical_form:
      enterprise.juridical_form === null
        ? null
        : { code: text(enterprise.juridical_form)!, description: text(enterprise.juridical_form_description) },
    start_date: text(enterprise.start_date),
    address: address ? enterpriseAddress(address, language) : null,
  };
}

export function enterpriseDetail(rows: EnterpriseRows, language: Language) {
  const { abbreviation: _abbreviation, address: _address, ...summary } = enterpriseSummary(rows, language);
  return {
    ...summary,
    denominations: rows.names.map((name) => ({
      type: DENOMINATION_TYPE[String(name.type)] ?? String(name.type),
      language: DENOMINATION_LANGUAGE[String(name.language)] ?? null,
      name: String(name.name),
    })),
    addresses: rows.addresses.map((address) => enterpriseAddress(address, language)),
    contacts: rows.contacts.map((contact) => ({
      type: CONTACT_TYPE[String(contact.type)] ?? String(contact.type),
      value: String(contact.value),
    })),
    activities: rows.activities.map((activity) => ({
      nace_version: String(activity.nace_version),
      nace_code: String(activity.nace_code),
      classification: CLASSIFICATION[String(activity.classification)] ?? String(activity.classification),
      description: text(activity.description),
    })),
    establishment_count: rows.establishment_count,
  };
}

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
    text(row[`${prefix}_${shown}`]) ??
    text(row[`${prefix}_nl`]) ??
    text(row[`${prefix}_fr`]) ??
    text(row[`${prefix}_de`]);
  return {
    id: String(row.id),
    street: pick('street'),
    housenr: text(row.housenr),
    boxnr: text(row.boxnr),
    zipcode: text(row.zipcode),
    municipality: pick('municipality'),
    postname: shown === 'de' ? (text(row.postname_fr) ?? text(row.postname_nl)) : pick('postname'),
    language: shown,
    lat: row.lat === null ? null : Number(row.lat),
    lon: row.lon === null ? null : Number(row.lon),
    street_names: { nl: text(row.street_nl), fr: text(row.street_fr), de: text(row.street_de) },
  };
}

export function postalCodeItem(row: Row) {
  return {
    zipcode: String(row.zipcode),
    municipality: { nl: text(row.municipality_nl), fr: text(row.municipality_fr), de: text(row.municipality_de) },
    postname: { nl: text(row.postname_nl), fr: text(row.postname_fr) },
    addresses: Number(row.addresses),
  };
}

const integer = (value: unknown) => (value === null || value === undefined ? null : Number(value));

export function versionItem(row: Row) {
  return {
    id: String(row.id),
    brand: String(row.brand),
    model: String(row.model),
    type: text(row.type),
    variant: text(row.variant),
    version: text(row.version),
    fuel: text(row.fuel),
    fuel_mode: text(row.fuel_mode),
    engine_cc: integer(row.engine_cc),
    power_kw: integer(row.power_kw),
    mass_kg: integer(row.mass_kg),
    co2_wltp: integer(row.co2_wltp),
    electric_range_km: integer(row.electric_range_km),
    years: JSON.parse(String(row.years)) as number[],
    registrations: Number(row.registrations),
  };
}
