// Stored enterprise rows as the API shows them (docs/design.md section 6): names and
// places in the caller's language where the source has several, codes spelled out.
import type { Language } from '../../i18n/messages.ts';
import { type Row, storedText } from '../store/rows.ts';
import { formatEnterpriseNumber } from './enterprise-number.ts';
import type { EnterpriseRows, EnterpriseSummaryRows } from './enterprise-reader.ts';

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

const digits = (number: unknown) => String(number).padStart(10, '0');

/** The name the caller reads: the 001 denomination in their language, else the first one. */
function nameOf(names: readonly Row[], language: Language): string | null {
  const official = names.filter((name) => name.type === '001');
  const chosen =
    official.find((name) => DENOMINATION_LANGUAGE[String(name.language)] === language) ?? official[0] ?? names[0];
  return storedText(chosen?.name);
}

/**
 * KBO names places in Dutch and French: the caller's language when it is one of them,
 * else the language of the place (Brussels and Wallonia French, Flanders Dutch, by postcode).
 */
function inLanguage(language: Language, zipcode: unknown, nl: unknown, fr: unknown): string | null {
  const zip = Number(zipcode);
  const french = language === 'fr' || (language !== 'nl' && (zip < 1500 || (zip >= 4000 && zip < 8000)));
  return french ? (storedText(fr) ?? storedText(nl)) : (storedText(nl) ?? storedText(fr));
}

function enterpriseAddress(row: Row, language: Language) {
  const foreign = row.country_nl !== null || row.country_fr !== null;
  return {
    type: ADDRESS_TYPE[String(row.type)] ?? String(row.type),
    street: inLanguage(language, row.zipcode, row.street_nl, row.street_fr),
    housenr: storedText(row.housenr),
    boxnr: storedText(row.boxnr),
    zipcode: storedText(row.zipcode),
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
    abbreviation: storedText(names.find((name) => name.type === '002')?.name),
    status: STATUS[String(enterprise.status)] ?? storedText(enterprise.status),
    type: enterprise.type_of_enterprise === '1' ? 'natural_person' : 'legal_person',
    juridical_form:
      enterprise.juridical_form === null
        ? null
        : {
            code: storedText(enterprise.juridical_form)!,
            description: storedText(enterprise.juridical_form_description),
          },
    start_date: storedText(enterprise.start_date),
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
      description: storedText(activity.description),
    })),
    establishment_count: rows.establishment_count,
  };
}
