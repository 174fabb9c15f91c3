// Small reference files in the published formats, written by the tests themselves: a KBO
// Open Data dump (folder or zip), BeST Address CSVs (plain or gzip) and EEA CO2 CSVs in
// both header spellings, with the awkward rows real files have.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { crc32, gzipSync } from 'node:zlib';

export function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'reference-files-'));
}

/** RFC 4180 quoting of every field, as the KBO and EEA files do. */
export function csv(rows: readonly (readonly (string | number | null)[])[], delimiter = ','): string {
  return `${rows.map((row) => row.map((value) => `"${String(value ?? '').replaceAll('"', '""')}"`).join(delimiter)).join('\r\n')}\r\n`;
}

export type KboFiles = Record<string, string>;

/** A dump of three enterprises (and one establishment), as the KBO publishes it. */
export function kboDump({ veneco = 'Intergemeentelijke Vereniging Veneco' } = {}): KboFiles {
  return {
    'meta.csv': csv([
      ['Variable', 'Value'],
      ['SnapshotDate', '01-11-2026'],
      ['ExtractNumber', '140'],
      ['ExtractType', 'full'],
    ]),
    'code.csv': csv([
      ['Category', 'Code', 'Language', 'Description'],
      ['JuridicalForm', '416', 'NL', 'Intercommunale vereniging'],
      ['JuridicalForm', '416', 'FR', 'Intercommunale'],
      ['JuridicalForm', '610', 'NL', 'Besloten Vennootschap'],
      ['JuridicalForm', '610', 'FR', 'Société à responsabilité limitée'],
      ['Nace2008', '84130', 'NL', 'Openbaar bestuur op het gebied van het economisch beleid'],
      ['Nace2008', '84130', 'FR', 'Administration publique (tutelle) des activités économiques'],
      ['Nace2008', '10711', 'FR', 'Fabrication artisanale de pain et de pâtisserie fraîche'],
    ]),
    'enterprise.csv': csv([
      [
        'EnterpriseNumber',
        'Status',
        'JuridicalSituation',
        'TypeOfEnterprise',
        'JuridicalForm',
        'JuridicalFormCAC',
        'StartDate',
      ],
      ['0200.065.765', 'AC', '000', '2', '416', '', '29-03-1961'],
      ['0403.170.701', 'AC', '000', '2', '610', '', '01-02-1990'],
      ['0417.497.106', 'AC', '000', '1', '', '', ''],
    ]),
    'establishment.csv': csv([
      ['EstablishmentNumber', 'StartDate', 'EnterpriseNumber'],
      ['2.000.000.339', '01-01-1990', '0200.065.765'],
      ['2.000.000.436', '01-01-2001', '0200.065.765'],
    ]),
    'branch.csv': csv([['Id', 'StartDate', 'EnterpriseNumber']]),
    'denomination.csv': csv([
      ['EntityNumber', 'Language', 'TypeOfDenomination', 'Denomination'],
      ['0200.065.765', '2', '001', veneco],
      ['0200.065.765', '2', '002', 'Veneco'],
      ['0403.170.701', '1', '001', 'Boulangerie "Le Pain", Dupont SRL'],
      ['0403.170.701', '2', '001', 'Bakkerij Het Brood, Dupont BV'],
      ['0417.497.106', '2', '003', 'Liègeois Frituur'],
      ['2.000.000.339', '2', '003', 'Veneco kantoor Lokeren'],
    ]),
    'address.csv': csv([
      [
        'EntityNumber',
        'TypeOfAddress',
        'CountryNL',
        'CountryFR',
        'Zipcode',
        'MunicipalityNL',
        'MunicipalityFR',
        'StreetNL',
        'StreetFR',
        'HouseNumber',
        'Box',
        'ExtraAddressInfo',
        'DateStrikingOff',
      ],
      [
        '0200.065.765',
        'REGO',
        '',
        '',
        '9000',
        'Gent',
        'Gand',
        'Sint-Lievenslaan',
        'Sint-Lievenslaan',
        '27',
        '',
        '',
        '',
      ],
      [
        '0200.065.765',
        'REGO',
        '',
        '',
        '9100',
        'Sint-Niklaas',
        'Saint-Nicolas',
        'Oude Baan',
        'Oude Baan',
        '1',
        '',
        '',
        '12-05-2004',
      ],
      ['0403.170.701', 'REGO', '', '', '4000', 'Luik', 'Liège', 'Luikstraat', 'Rue de Liège', '5', 'B', '', ''],
      ['2.000.000.339', 'BAET', '', '', '9160', 'Lokeren', 'Lokeren', 'Markt', 'Markt', '1', '', '', ''],
    ]),
    'contact.csv': csv([
      ['EntityNumber', 'EntityContact', 'ContactType', 'Value'],
      ['0200.065.765', 'ENT', 'EMAIL', 'info@veneco.be'],
      ['0200.065.765', 'ENT', 'TEL', '09 240 83 00'],
    ]),
    'activity.csv': csv([
      ['EntityNumber', 'ActivityGroup', 'NaceVersion', 'NaceCode', 'Classification'],
      ['0200.065.765', '001', '2008', '84130', 'MAIN'],
      ['0403.170.701', '001', '2008', '10711', 'MAIN'],
    ]),
  };
}

export function writeFolder(files: KboFiles, dir = tempDir()): string {
  for (const [name, content] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), content);
  return dir;
}

/** A zip of stored (uncompressed) members: the format the KBO publishes, without a zip library. */
export function writeZip(files: KboFiles, file = path.join(tempDir(), 'KboOpenData_0140_2026_11_Full.zip')): string {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of Object.entries(files)) {
    const data = Buffer.from(content);
    const nameBytes = Buffer.from(name);
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt32LE(crc, 16);
    entry.writeUInt32LE(data.length, 20);
    entry.writeUInt32LE(data.length, 24);
    entry.writeUInt16LE(nameBytes.length, 28);
    entry.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    central.push(entry, nameBytes);
    offset += 30 + nameBytes.length + data.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(files).length, 8);
  end.writeUInt16LE(Object.keys(files).length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  fs.writeFileSync(file, Buffer.concat([...locals, directory, end]));
  return file;
}

const BEST_HEADER = [
  'EPSG:31370_x',
  'EPSG:31370_y',
  'EPSG:4326_lat',
  'EPSG:4326_lon',
  'address_id',
  'box_number',
  'house_number',
  'municipality_id',
  'municipality_name_de',
  'municipality_name_fr',
  'municipality_name_nl',
  'postcode',
  'postname_fr',
  'postname_nl',
  'street_id',
  'streetname_de',
  'streetname_fr',
  'streetname_nl',
  'region_code',
  'status',
];

export type BestRow = [
  id: string,
  house: string,
  box: string,
  zipcode: string,
  nl: string,
  fr: string,
  de: string,
  municipalityNl: string,
  municipalityFr: string,
  status: string,
];

export function bestCsv(rows: readonly BestRow[]): string {
  const lines = rows.map(([id, house, box, zipcode, nl, fr, de, mnl, mfr, status]) => [
    '149000.1',
    '170000.2',
    '50.8466',
    '4.3528',
    id,
    box,
    house,
    '21004',
    '',
    mfr,
    mnl,
    zipcode,
    mfr,
    mnl,
    `s${id}`,
    de,
    fr,
    nl,
    'BE-BRU',
    status,
  ]);
  // BeST quotes only what needs it.
  return `${[BEST_HEADER, ...lines].map((row) => row.map((v) => (/[",]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v)).join(',')).join('\n')}\n`;
}

export const BRUSSELS_ADDRESSES: readonly BestRow[] = [
  ['1', '16', '', '1000', 'Wetstraat', 'Rue de la Loi', '', 'Brussel', 'Bruxelles', 'current'],
  ['2', '160', '', '1000', 'Wetstraat', 'Rue de la Loi', '', 'Brussel', 'Bruxelles', 'current'],
  ['3', '16', '2', '1040', 'Wetstraat', 'Rue de la Loi', '', 'Etterbeek', 'Etterbeek', 'current'],
  ['4', '17', '', '1000', 'Wetstraat', 'Rue de la Loi', '', 'Brussel', 'Bruxelles', 'retired'],
  ['5', '3', '', '4000', 'Luikstraat', 'Rue Saint-Léonard', '', 'Luik', 'Liège', 'current'],
  ['6', '12', '', '4700', '', 'Rue de la Gare', 'Bahnhofstraße', 'Eupen', 'Eupen', 'current'],
];

export function gzip(text: string): Buffer {
  return gzipSync(Buffer.from(text));
}

export const EEA_RECENT = [
  'ID',
  'Country',
  'Mk',
  'Cn',
  'T',
  'Va',
  'Ve',
  'Ft',
  'Fm',
  'ec (cm3)',
  'ep (KW)',
  'm (kg)',
  'Ewltp (g/km)',
  'Electric range (km)',
  'r',
  'year',
];
const EEA_OLDER = [
  'ID',
  'MS',
  'Mk',
  'Cn',
  'T',
  'Va',
  'Ve',
  'Ft',
  'Fm',
  'Ec (cm3)',
  'Ep (KW)',
  'M (kg)',
  'Ewltp (g/km)',
  'Electric range (km)',
  'R',
  'Year',
];

/** Recent spelling (lowercase, commas) and the older one (capitals, tabs); the same Golf in both years. */
export function eeaFiles(dir = tempDir()): string[] {
  const recent = path.join(dir, 'CO2_passenger_cars_2023.csv');
  const older = path.join(dir, 'CO2_passenger_cars_2019.csv');
  fs.writeFileSync(
    recent,
    csv([
      EEA_RECENT,
      [
        '1',
        'BE',
        'VOLKSWAGEN',
        'GOLF',
        'CD',
        'CDA',
        'CDA110',
        'petrol',
        'M',
        '1498',
        '110',
        '1380',
        '128',
        '',
        '10',
        '2023',
      ],
      [
        '2',
        'FR',
        'volkswagen',
        'Golf',
        'CD',
        'CDA',
        'CDA110',
        'PETROL',
        'M',
        '1498',
        '110',
        '1380',
        '128',
        '',
        '5',
        '2023',
      ],
      [
        '3',
        'BE',
        'TESLA',
        'MODEL 3',
        '003',
        '003A',
        '003A208',
        'electric',
        'E',
        '',
        '208',
        '1765',
        '0',
        '513',
        '7',
        '2023',
      ],
      ['4', 'BE', '', 'NO MAKE', 'X', 'X', 'X', 'petrol', 'M', '1000', '50', '900', '100', '', '1', '2023'],
    ]),
  );
  fs.writeFileSync(
    older,
    csv(
      [
        EEA_OLDER,
        [
          '9',
          'DE',
          'VOLKSWAGEN',
          'GOLF',
          'CD',
          'CDA',
          'CDA110',
          'petrol',
          'M',
          '1498',
          '110',
          '1380',
          '128',
          '',
          '20',
          '2019',
        ],
        [
          '10',
          'DE',
          'VOLKSWAGEN',
          'GOLF',
          'CD',
          'CDB',
          'CDB085',
          'diesel',
          'M',
          '1968',
          '85',
          '1420',
          '112',
          '',
          '3',
          '2019',
        ],
      ],
      '\t',
    ),
  );
  return [recent, older];
}
