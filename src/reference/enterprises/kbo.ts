// The KBO/BCE Open Data full dump (Crossroads Bank for Enterprises), as published: a zip
// or folder of quoted CSVs. Only enterprises are served, so rows about establishments
// (numbers `2.xxx.xxx.xxx`) are counted and dropped; an address struck off the register
// (DateStrikingOff set) is no longer an address of the enterprise and is dropped too.
import { ImportRefused } from '../import/import-errors.ts';
import {
  isoDate,
  textOrNull,
  type ReferenceSourceDefinition,
  type RowSink,
  type SourceSummary,
} from '../import/reference-source.ts';
import { csvRecords, type CsvShape } from '../import/csv-records.ts';

const shape = (columns: readonly string[], optional: readonly string[] = []): CsvShape => ({
  wanted: Object.fromEntries([...columns, ...optional].map((c) => [c, [c]])),
  required: columns,
});

/** The files the dump must hold, in the order they are read, with the columns used. */
const FILES = {
  meta: shape(['Variable', 'Value']),
  code: shape(['Category', 'Code', 'Language', 'Description']),
  enterprise: shape(
    ['EnterpriseNumber', 'Status', 'JuridicalSituation', 'TypeOfEnterprise', 'JuridicalForm', 'StartDate'],
    ['JuridicalFormCAC'],
  ),
  establishment: shape(['EstablishmentNumber', 'EnterpriseNumber']),
  denomination: shape(['EntityNumber', 'Language', 'TypeOfDenomination', 'Denomination']),
  address: shape(
    [
      'EntityNumber',
      'TypeOfAddress',
      'Zipcode',
      'MunicipalityNL',
      'MunicipalityFR',
      'StreetNL',
      'StreetFR',
      'HouseNumber',
      'Box',
      'DateStrikingOff',
    ],
    ['CountryNL', 'CountryFR', 'ExtraAddressInfo'],
  ),
  contact: shape(['EntityNumber', 'EntityContact', 'ContactType', 'Value']),
  activity: shape(['EntityNumber', 'ActivityGroup', 'NaceVersion', 'NaceCode', 'Classification']),
} as const;
type FileName = keyof typeof FILES;

/** `0200.065.765` -> 200065765; undefined for anything else (establishment numbers). */
function enterpriseKey(text: string | undefined): number | undefined {
  const match = /^([01]\d{3})\.(\d{3})\.(\d{3})$/.exec(text ?? '');
  return match ? Number(match[1]! + match[2]! + match[3]!) : undefined;
}

export const enterpriseSource: ReferenceSourceDefinition = {
  name: 'enterprises',
  keys: { enterprise: 'number' },
  tables: {
    code: [
      ['category', 'text'],
      ['code', 'text'],
      ['language', 'text'],
      ['description', 'text'],
    ],
    enterprise: [
      ['number', 'int'],
      ['status', 'text'],
      ['juridical_situation', 'text'],
      ['type_of_enterprise', 'text'],
      ['juridical_form', 'text'],
      ['start_date', 'text'],
    ],
    establishment: [['number', 'int']],
    denomination: [
      ['number', 'int'],
      ['language', 'text'],
      ['type', 'text'],
      ['name', 'text'],
    ],
    address: [
      ['number', 'int'],
      ['type', 'text'],
      ['country_nl', 'text'],
      ['country_fr', 'text'],
      ['zipcode', 'text'],
      ['municipality_nl', 'text'],
      ['municipality_fr', 'text'],
      ['street_nl', 'text'],
      ['street_fr', 'text'],
      ['housenr', 'text'],
      ['boxnr', 'text'],
      ['extra', 'text'],
    ],
    contact: [
      ['number', 'int'],
      ['type', 'text'],
      ['value', 'text'],
    ],
    activity: [
      ['number', 'int'],
      ['activity_group', 'text'],
      ['nace_version', 'text'],
      ['nace_code', 'text'],
      ['classification', 'text'],
    ],
  },

  select(entries) {
    const byName = new Map(entries.map((entry) => [entry.name.toLowerCase(), entry]));
    const missing = Object.keys(FILES).filter((name) => !byName.has(`${name}.csv`));
    if (missing.length > 0) {
      throw new ImportRefused(`not a KBO Open Data dump: missing ${missing.map((n) => `${n}.csv`).join(', ')}`);
    }
    return Object.keys(FILES).map((name) => byName.get(`${name}.csv`)!);
  },

  async read(entries, sink, progress) {
    let snapshotDate: string | null = null;
    let rowsRead = 0;
    const skipped: Record<string, number> = {};
    const skip = (reason: string) => {
      skipped[reason] = (skipped[reason] ?? 0) + 1;
    };
    for (const entry of entries) {
      const file = entry.name.toLowerCase().replace(/\.csv$/, '') as FileName;
      let at: Readonly<Record<string, number>> = {};
      const rows = csvRecords(
        entry,
        FILES[file],
        (n) => progress.bytes(n),
        (columns) => (at = columns.at),
      );
      const add = rowWriter(file, sink, skip, (date) => (snapshotDate = date));
      for await (const record of rows) {
        rowsRead += 1;
        const pending = add(record, at);
        if (pending) await pending;
      }
    }
    return { snapshotDate, skipped, rowsRead } satisfies SourceSummary;
  },
};

type Writer = (record: string[], at: Readonly<Record<string, number>>) => Promise<void> | undefined;

function rowWriter(
  file: FileName,
  sink: RowSink,
  skip: (reason: string) => void,
  onSnapshot: (date: string | null) => void,
): Writer {
  const v = (record: string[], at: Readonly<Record<string, number>>, column: string) =>
    at[column] === undefined ? null : textOrNull(record[at[column]!]);
  switch (file) {
    case 'meta':
      return (r, at) => {
        if (v(r, at, 'Variable') === 'SnapshotDate') onSnapshot(isoDate(v(r, at, 'Value') ?? ''));
        return undefined;
      };
    case 'code':
      return (r, at) =>
        sink.add('code', [v(r, at, 'Category'), v(r, at, 'Code'), v(r, at, 'Language'), v(r, at, 'Description')]);
    case 'enterprise':
      return (r, at) => {
        const number = enterpriseKey(v(r, at, 'EnterpriseNumber') ?? '');
        if (number === undefined) return void skip('malformed enterprise numbers');
        return sink.add('enterprise', [
          number,
          v(r, at, 'Status'),
          v(r, at, 'JuridicalSituation'),
          v(r, at, 'TypeOfEnterprise'),
          v(r, at, 'JuridicalForm'),
          isoDate(v(r, at, 'StartDate') ?? ''),
        ]);
      };
    case 'establishment':
      return (r, at) => {
        const number = enterpriseKey(v(r, at, 'EnterpriseNumber') ?? '');
        return number === undefined ? void skip('malformed enterprise numbers') : sink.add('establishment', [number]);
      };
    default: {
      // Rows keyed by EntityNumber: enterprises only.
      const values = CHILD_ROWS[file];
      return (r, at) => {
        const number = enterpriseKey(v(r, at, 'EntityNumber') ?? '');
        if (number === undefined) return void skip(`${file} rows of establishments`);
        if (file === 'address' && v(r, at, 'DateStrikingOff') !== null) return void skip('struck-off addresses');
        return sink.add(file, [number, ...values.map((column) => v(r, at, column))]);
      };
    }
  }
}

const CHILD_ROWS: Readonly<Record<'denomination' | 'address' | 'contact' | 'activity', readonly string[]>> = {
  denomination: ['Language', 'TypeOfDenomination', 'Denomination'],
  address: [
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
  ],
  contact: ['ContactType', 'Value'],
  activity: ['ActivityGroup', 'NaceVersion', 'NaceCode', 'Classification'],
};
