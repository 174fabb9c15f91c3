// Generates reference data in exactly the published formats: the KBO/BCE Open Data dump
// (folder of quoted CSVs), BeST Address flat CSVs (one per region) and EEA new-car CO2
// CSVs (the lowercase comma spelling of recent years and the capitalised tab spelling of
// older ones). Deterministic (seeded), streamed to disk, so the same code writes the
// repository's small samples and the benchmark's full Belgian scale.
//   npx node samples/generate.ts                 -> samples/{enterprises,addresses,vehicles}
//   npx node samples/generate.ts DIR ENTERPRISES ADDRESSES VEHICLE_ROWS
import fs from 'node:fs';
import path from 'node:path';
import { once } from 'node:events';
import { CARS, JURIDICAL_FORMS, MUNICIPALITIES, SURNAMES, TRADES, type Municipality } from './belgian-names.ts';
import { type CatalogueVersion, catalogue, registeredVersion } from './national-catalogue.ts';
import { type AddressBook, addressBook, companyName, type Random, surname } from './national-vocabulary.ts';

export interface Scale {
  readonly enterprises: number;
  readonly addresses: number;
  readonly vehicleRows: number;
}

export const SAMPLE_SCALE: Scale = { enterprises: 300, addresses: 400, vehicleRows: 400 };

/** mulberry32: small, fast, and the same sequence on every machine. */
function random(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (n: number) => Math.floor(next() * n), pick: <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]! };
}

class CsvFile {
  readonly #out: fs.WriteStream;
  readonly #quoteAll: boolean;
  readonly #delimiter: string;
  #buffer = '';

  constructor(file: string, header: readonly string[], { quoteAll = true, delimiter = ',' } = {}) {
    this.#out = fs.createWriteStream(file);
    this.#quoteAll = quoteAll;
    this.#delimiter = delimiter;
    this.#buffer = `${this.#line(header)}\n`;
  }

  #line(values: readonly (string | number | null)[]): string {
    return values.map((value) => {
      const text = value === null ? '' : String(value);
      return this.#quoteAll || /[",\n\t]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
    }).join(this.#delimiter);
  }

  async row(values: readonly (string | number | null)[]): Promise<void> {
    this.#buffer += `${this.#line(values)}\n`;
    if (this.#buffer.length > 1 << 16) await this.#flush();
  }

  async #flush(): Promise<void> {
    const text = this.#buffer;
    this.#buffer = '';
    if (!this.#out.write(text)) await once(this.#out, 'drain');
  }

  async close(): Promise<void> {
    await this.#flush();
    this.#out.end();
    await once(this.#out, 'finish');
  }
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');
const dotted = (digits: string) => `${digits.slice(0, 4)}.${digits.slice(4, 7)}.${digits.slice(7)}`;
const kboDate = (r: Random) => `${pad(1 + r.int(28), 2)}-${pad(1 + r.int(12), 2)}-${1950 + r.int(75)}`;

/** The i-th valid enterprise number: eight digits from 0200.000.0 upwards, with their mod-97 check. */
export function enterpriseNumber(i: number): string {
  const base = 2_000_657 + i * 7;
  return `${pad(base, 8)}${pad(97 - (base % 97), 2)}`;
}

/** Where enterprises are and what they are called: the sample's short lists, or the country's long tail. */
interface EnterpriseVocabulary {
  place(r: Random, i: number): { zipcode: string; nl: string; fr: string; streetNl: string; streetFr: string; region: Municipality['region'] };
  name(r: Random, trade: (typeof TRADES)[number], surname: string, french: boolean, town: string): string;
  surname(r: Random): string;
}

const SAMPLE_ENTERPRISES: EnterpriseVocabulary = {
  place(r, i) {
    // The first is Veneco, in Gent, as in the KBO.
    const place = i === 0 ? MUNICIPALITIES[4]! : r.pick(MUNICIPALITIES);
    const [streetNl, streetFr] = r.pick(place.streets);
    const nl = place.nl ?? place.fr!;
    const fr = place.fr ?? place.nl!;
    return { zipcode: place.zipcode, nl, fr, streetNl: streetNl ?? streetFr!, streetFr: streetFr ?? streetNl!, region: place.region };
  },
  name: (_r, trade, surname, french) => `${french ? trade[1] : trade[0]} ${surname}`,
  surname: (r) => r.pick(SURNAMES),
};

function nationalEnterprises(book: AddressBook): EnterpriseVocabulary {
  return {
    place(r, i) {
      if (i === 0) return SAMPLE_ENTERPRISES.place(r, i);
      const street = book.street(r);
      const commune = street.commune;
      const nl = commune.nl ?? commune.fr ?? commune.de!;
      const fr = commune.fr ?? nl;
      return { zipcode: street.area.zipcode, nl, fr, streetNl: street.nl ?? street.fr ?? street.de!, streetFr: street.fr ?? street.nl ?? street.de!, region: commune.region };
    },
    name: (r, _trade, _surname, french, town) => companyName(r, french, town),
    surname,
  };
}

/** Enterprises; with an address book, at the country's addresses and under its long tail of names. */
export async function generateEnterprises(dir: string, count: number, book?: AddressBook): Promise<void> {
  fs.mkdirSync(dir, { recursive: true });
  const r = random(1);
  const names = book ? nationalEnterprises(book) : SAMPLE_ENTERPRISES;
  const csv = (name: string, header: string[]) => new CsvFile(path.join(dir, `${name}.csv`), header);
  const meta = csv('meta', ['Variable', 'Value']);
  for (const row of [['SnapshotDate', '01-11-2026'], ['ExtractTimestamp', '02-11-2026 06:14:31'], ['ExtractType', 'full'], ['ExtractNumber', '140'], ['Version', '1.0.0']]) await meta.row(row);
  await meta.close();
  const code = csv('code', ['Category', 'Code', 'Language', 'Description']);
  for (const [c, nl, fr, de] of JURIDICAL_FORMS) for (const [lang, text] of [['NL', nl], ['FR', fr], ['DE', de]]) await code.row(['JuridicalForm', c, lang!, text!]);
  for (const [, , nace, nl, fr] of TRADES) for (const [lang, text] of [['NL', nl], ['FR', fr]]) await code.row(['Nace2008', nace, lang!, text!]);
  for (const [c, nl, fr] of [['AC', 'Actief', 'Actif']]) for (const [lang, text] of [['NL', nl], ['FR', fr]]) await code.row(['Status', c!, lang!, text!]);
  for (const [c, nl, fr] of [['1', 'Natuurlijk persoon', 'Personne physique'], ['2', 'Rechtspersoon', 'Personne morale']]) for (const [lang, text] of [['NL', nl], ['FR', fr]]) await code.row(['TypeOfEnterprise', c!, lang!, text!]);
  await code.close();
  const enterprise = csv('enterprise', ['EnterpriseNumber', 'Status', 'JuridicalSituation', 'TypeOfEnterprise', 'JuridicalForm', 'JuridicalFormCAC', 'StartDate']);
  const establishment = csv('establishment', ['EstablishmentNumber', 'StartDate', 'EnterpriseNumber']);
  const branch = csv('branch', ['Id', 'StartDate', 'EnterpriseNumber']);
  const denomination = csv('denomination', ['EntityNumber', 'Language', 'TypeOfDenomination', 'Denomination']);
  const address = csv('address', ['EntityNumber', 'TypeOfAddress', 'CountryNL', 'CountryFR', 'Zipcode', 'MunicipalityNL', 'MunicipalityFR', 'StreetNL', 'StreetFR', 'HouseNumber', 'Box', 'ExtraAddressInfo', 'DateStrikingOff']);
  const contact = csv('contact', ['EntityNumber', 'EntityContact', 'ContactType', 'Value']);
  const activity = csv('activity', ['EntityNumber', 'ActivityGroup', 'NaceVersion', 'NaceCode', 'Classification']);
  let establishments = 0;
  for (let i = 0; i < count; i++) {
    const number = dotted(enterpriseNumber(i));
    const place = names.place(r, i);
    const trade = r.pick(TRADES);
    const form = i === 0 ? JURIDICAL_FORMS[4]! : r.pick(JURIDICAL_FORMS.slice(0, 4));
    const natural = i > 0 && r.int(10) === 0;
    await enterprise.row([number, 'AC', '000', natural ? '1' : '2', natural ? null : form[0], null, kboDate(r)]);
    const surname = names.surname(r);
    const french = place.region === 'BE-WAL';
    const town = french ? place.fr : place.nl;
    if (i === 0) {
      await denomination.row([number, '2', '001', 'Intergemeentelijke Vereniging Veneco']);
      await denomination.row([number, '2', '002', 'Veneco']);
    } else if (!natural) {
      const name = names.name(r, trade, surname, french, town);
      await denomination.row([number, french ? '1' : '2', '001', `${name}${form[4] ? ` ${french ? form[5] : form[4]}` : ''}`]);
      // Brussels enterprises often register their name in both languages.
      if (place.region === 'BE-BRU') await denomination.row([number, '1', '001', `${names.name(r, trade, surname, true, place.fr)} ${form[5]}`]);
      if (r.int(4) === 0) await denomination.row([number, '0', '003', `${surname}, ${trade[0]} & Co`]);
    } else {
      await denomination.row([number, french ? '1' : '2', '003', `${french ? trade[1] : trade[0]} ${surname}`]);
    }
    const houseNumber = String(1 + r.int(120));
    await address.row([number, 'REGO', null, null, place.zipcode, place.nl, place.fr, place.streetNl, place.streetFr,
      houseNumber, r.int(5) === 0 ? String(1 + r.int(9)) : null, null, null]);
    // Now and then an old registered office the register struck off.
    if (r.int(15) === 0) await address.row([number, 'REGO', null, null, '9000', 'Gent', 'Gand', 'Oude Vaartstraat', 'Oude Vaartstraat', '3', null, null, kboDate(r)]);
    if (r.int(2) === 0) await contact.row([number, 'ENT', 'EMAIL', `info@${surname.toLowerCase().replace(/\s/g, '')}${i}.be`]);
    if (r.int(3) === 0) await contact.row([number, 'ENT', 'TEL', `0${2 + r.int(8)}${pad(r.int(10_000_000), 7)}`]);
    await activity.row([number, '001', '2008', trade[2], 'MAIN']);
    if (r.int(3) === 0) await activity.row([number, '001', '2008', r.pick(TRADES)[2], 'SECO']);
    for (let e = r.int(3); e > 0; e--) {
      const unit = `2.${pad(100_000_000 + establishments++, 9).replace(/(\d{3})(\d{3})(\d{3})/, '$1.$2.$3')}`;
      await establishment.row([unit, kboDate(r), number]);
      await denomination.row([unit, '2', '003', `${trade[0]} ${surname} ${place.nl}`]);
      await address.row([unit, 'BAET', null, null, place.zipcode, place.nl, place.fr, place.streetNl, place.streetFr, String(1 + r.int(80)), null, null, null]);
    }
  }
  for (const file of [enterprise, establishment, branch, denomination, address, contact, activity]) await file.close();
}

const BEST_HEADER = ['EPSG:31370_x', 'EPSG:31370_y', 'EPSG:4326_lat', 'EPSG:4326_lon', 'address_id', 'box_number', 'house_number',
  'municipality_id', 'municipality_name_de', 'municipality_name_fr', 'municipality_name_nl', 'postcode', 'postname_fr', 'postname_nl',
  'street_id', 'streetname_de', 'streetname_fr', 'streetname_nl', 'region_code', 'status'];

export async function generateAddresses(dir: string, count: number): Promise<void> {
  fs.mkdirSync(dir, { recursive: true });
  const r = random(2);
  const files = { 'BE-VLG': 'openaddress-bevlg.csv', 'BE-BRU': 'openaddress-bebru.csv', 'BE-WAL': 'openaddress-bewal.csv' } as const;
  const out = Object.fromEntries(Object.entries(files).map(([region, name]) => [region, new CsvFile(path.join(dir, name), BEST_HEADER, { quoteAll: false })]));
  // Wetstraat 16 / Rue de la Loi 16 in 1000 Brussel first, so the README's example finds it.
  const brussels = MUNICIPALITIES[0]!;
  for (let i = 0; i < count; i++) {
    const place = i === 0 ? brussels : r.pick(MUNICIPALITIES);
    const streetIndex = i === 0 ? 0 : r.int(place.streets.length);
    const [nl, fr, de] = place.streets[streetIndex]!;
    const house = i === 0 ? '16' : String(1 + r.int(i < count / 2 ? 40 : 200)) + (r.int(12) === 0 ? 'A' : '');
    const lat = place.lat + (r.next() - 0.5) / 50;
    const lon = place.lon + (r.next() - 0.5) / 50;
    const status = i > 0 && r.int(25) === 0 ? 'retired' : 'current';
    await out[place.region]!.row([(150000 + lon * 1000).toFixed(2), (170000 + lat * 1000).toFixed(2), lat.toFixed(7), lon.toFixed(7),
      String(1_000_000 + i), r.int(8) === 0 ? String(1 + r.int(12)) : null, house, place.nis, place.de, place.fr, place.nl,
      place.zipcode, place.fr, place.nl, `${place.nis}${pad(streetIndex, 3)}`, de, fr, nl, place.region, status]);
  }
  for (const file of Object.values(out)) await file.close();
}

/**
 * BeST addresses street by street from the country's address book: house numbers up one
 * side, apartment buildings with boxes now and then, a few retired addresses.
 */
export async function generateNationalAddresses(dir: string, book: AddressBook): Promise<void> {
  fs.mkdirSync(dir, { recursive: true });
  const r = random(2);
  const files = { 'BE-VLG': 'openaddress-bevlg.csv', 'BE-BRU': 'openaddress-bebru.csv', 'BE-WAL': 'openaddress-bewal.csv' } as const;
  const out = Object.fromEntries(Object.entries(files).map(([region, name]) => [region, new CsvFile(path.join(dir, name), BEST_HEADER, { quoteAll: false })]));
  let id = 1_000_000;
  for (const street of book.streets) {
    const c = street.commune;
    const lat = c.lat + (r.next() - 0.5) / 50;
    const lon = c.lon + (r.next() - 0.5) / 50;
    let house = 1 + r.int(2);
    let boxes = 0;
    let box = 0;
    for (let n = 0; n < street.addresses; n++) {
      if (box < boxes) box += 1;
      else {
        if (n > 0) house += r.int(8) === 0 ? 0 : 2;
        boxes = r.int(12) === 0 ? 2 + r.int(12) : 0;
        box = boxes ? 1 : 0;
      }
      const suffix = boxes === 0 && r.int(20) === 0 ? 'A' : '';
      await out[c.region]!.row([(150000 + lon * 1000).toFixed(2), (170000 + lat * 1000).toFixed(2), lat.toFixed(7), lon.toFixed(7),
        String(id++), box ? String(box) : null, `${house}${suffix}`, c.nis, c.de, c.fr, c.nl, street.area.zipcode, street.area.postnameFr,
        street.area.postnameNl, street.id, street.de, street.fr, street.nl, c.region, r.int(25) === 0 ? 'retired' : 'current']);
    }
  }
  for (const file of Object.values(out)) await file.close();
}

const EEA_NEW = ['ID', 'Country', 'VFN', 'Mp', 'Mh', 'Man', 'MMS', 'Tan', 'T', 'Va', 'Ve', 'Mk', 'Cn', 'Ct', 'Cr', 'r', 'm (kg)', 'Mt',
  'Enedc (g/km)', 'Ewltp (g/km)', 'W (mm)', 'At1 (mm)', 'At2 (mm)', 'Ft', 'Fm', 'ec (cm3)', 'ep (KW)', 'z (Wh/km)', 'IT', 'Ernedc (g/km)',
  'Erwltp (g/km)', 'De', 'Vf', 'Status', 'year', 'Date of registration', 'Fuel consumption ', 'ech', 'RLFI', 'Electric range (km)'];
const EEA_OLD = ['ID', 'MS', 'Mp', 'Mh', 'Man', 'MMS', 'Tan', 'T', 'Va', 'Ve', 'Mk', 'Cn', 'Ct', 'Cr', 'R', 'M (kg)', 'Enedc (g/km)',
  'Ewltp (g/km)', 'W (mm)', 'At1 (mm)', 'At2 (mm)', 'Ft', 'Fm', 'Ec (cm3)', 'Ep (KW)', 'Z (Wh/km)', 'IT', 'Er (g/km)', 'Electric range (km)', 'Year'];

export async function generateVehicles(dir: string, rows: number, versionsPerCar = 4): Promise<void> {
  const r = random(3);
  await writeVehicles(dir, rows, () => {
    const [make, model, type, fuel, cc, kw, mass, co2, range] = r.pick(CARS);
    const n = r.int(versionsPerCar);
    const variant = `${type}${String.fromCharCode(65 + (n % 26))}${n >= 26 ? Math.floor(n / 26) : ''}`;
    return {
      make,
      model,
      type,
      variant,
      version: `${variant}${pad(kw + n * 10, 3)}`,
      fuel,
      fuelMode: fuel === 'petrol/electric' ? 'P' : fuel === 'electric' ? 'E' : 'M',
      cc,
      kw: kw + n * 10,
      mass: mass + n * 15,
      co2: co2 + (co2 ? n : 0),
      range,
    };
  }, r);
}

/**
 * EEA rows over a continent's catalogue (national-catalogue.ts): every one of `versions`
 * versions registered at least once, in a shuffled order, then `rows - versions` more rows
 * drawn by popularity.
 */
export async function generateNationalVehicles(dir: string, rows: number, versions: number): Promise<void> {
  const r = random(5);
  const byModel = catalogue(r, versions);
  const everyOnce = byModel.flat();
  for (let i = everyOnce.length - 1; i > 0; i--) {
    const j = r.int(i + 1);
    [everyOnce[i], everyOnce[j]] = [everyOnce[j]!, everyOnce[i]!];
  }
  let i = 0;
  await writeVehicles(dir, Math.max(rows, everyOnce.length), () => everyOnce[i++] ?? registeredVersion(r, byModel), r);
}

/** Both EEA spellings: three rows in four in this year's file, the fourth in 2019's. */
async function writeVehicles(dir: string, rows: number, next: () => CatalogueVersion, r: Random): Promise<void> {
  fs.mkdirSync(dir, { recursive: true });
  const recent = new CsvFile(path.join(dir, 'CO2_passenger_cars_2023.csv'), EEA_NEW);
  const older = new CsvFile(path.join(dir, 'CO2_passenger_cars_2019.csv'), EEA_OLD, { delimiter: '\t' });
  for (let i = 0; i < rows; i++) {
    const { make, model, type, variant, version, fuel, fuelMode: fm, cc, kw: power, mass, co2, range } = next();
    const country = r.pick(['BE', 'NL', 'FR', 'DE', 'LU']);
    const count = 1 + r.int(40);
    const ft = r.int(2) === 0 ? fuel.toUpperCase() : fuel;
    if (i % 4 !== 3) {
      await recent.row([String(90_000_000 + i), country, null, make, make, make, make, `e1*2007/46*${pad(i % 9999, 4)}`, type, variant, version, make, model, 'M1', 'M1',
        count, mass, mass + 75, null, co2, 2636, 1549, 1520, ft, fm, cc, power, range ? 160 : null, null, null, null, null, null, 'P', 2023,
        '2023-05-17', null, null, null, range]);
    } else {
      await older.row([String(40_000_000 + i), country, make, make, make, make, `e1*2007/46*${pad(i % 9999, 4)}`, type, variant, version, make, model, 'M1', 'M1',
        count, mass, null, co2, 2636, 1549, 1520, ft, fm, cc, power, range ? 160 : null, null, null, range, 2019]);
    }
  }
  await recent.close();
  await older.close();
}

/** All three sources with the country's long tail of names (the benchmark's data). */
export async function generateCountry(dir: string, scale: Scale, vehicleVersions = Math.ceil(scale.vehicleRows / 10)): Promise<void> {
  // Enterprises sit at the addresses' streets: one book for both.
  const book = addressBook(random(4), scale.addresses);
  await generateEnterprises(path.join(dir, 'enterprises'), scale.enterprises, book);
  await generateNationalAddresses(path.join(dir, 'addresses'), book);
  await generateNationalVehicles(path.join(dir, 'vehicles'), scale.vehicleRows, vehicleVersions);
}

if (import.meta.main) {
  // A fifth argument "national" draws from the country's long tail (national-vocabulary.ts).
  const [dir = path.join(import.meta.dirname), enterprises, addresses, vehicleRows, vocabulary] = process.argv.slice(2);
  const scale = enterprises ? { enterprises: Number(enterprises), addresses: Number(addresses), vehicleRows: Number(vehicleRows) } : SAMPLE_SCALE;
  if (vocabulary === 'national') await generateCountry(dir, scale);
  else {
    await generateEnterprises(path.join(dir, 'enterprises'), scale.enterprises);
    await generateAddresses(path.join(dir, 'addresses'), scale.addresses);
    await generateVehicles(path.join(dir, 'vehicles'), scale.vehicleRows);
  }
  process.stdout.write(`${JSON.stringify({ dir, ...scale, vocabulary: vocabulary ?? 'sample' })}\n`);
}
