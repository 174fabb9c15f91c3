// BeST Address flat CSVs (BOSA), one file per region or one for the country, `.csv` or
// `.csv.gz`. Only `current` addresses serve: proposed, reserved and retired ones are
// counted and dropped. Every address gets a sequence number, the key of its search entry.
import { ImportRefused } from '../import/import-errors.ts';
import { numberOrNull, textOrNull, type ReferenceSourceDefinition } from '../import/reference-source.ts';
import { csvRecords, type CsvShape } from '../import/csv-records.ts';

const COLUMNS = [
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
] as const;

const SHAPE: CsvShape = {
  wanted: Object.fromEntries([...COLUMNS, 'EPSG:31370_x', 'EPSG:31370_y'].map((c) => [c, [c]])),
  required: COLUMNS,
};

export const addressSource: ReferenceSourceDefinition = {
  name: 'addresses',
  keys: { address: 'seq' },
  tables: {
    address: [
      ['seq', 'int'],
      ['id', 'text'],
      ['street_id', 'text'],
      ['municipality_id', 'text'],
      ['street_nl', 'text'],
      ['street_fr', 'text'],
      ['street_de', 'text'],
      ['housenr', 'text'],
      ['boxnr', 'text'],
      ['zipcode', 'text'],
      ['municipality_nl', 'text'],
      ['municipality_fr', 'text'],
      ['municipality_de', 'text'],
      ['postname_nl', 'text'],
      ['postname_fr', 'text'],
      ['region', 'text'],
      ['lat', 'real'],
      ['lon', 'real'],
    ],
  },

  select(entries) {
    const csvs = entries.filter((entry) => /\.csv$/i.test(entry.name));
    if (csvs.length === 0) throw new ImportRefused('no BeST Address CSV given (expected .csv or .csv.gz files)');
    return csvs;
  },

  async read(entries, sink, progress) {
    const skipped: Record<string, number> = {};
    let seq = 0;
    let rowsRead = 0;
    for (const entry of entries) {
      let at: Readonly<Record<string, number>> = {};
      for await (const r of csvRecords(
        entry,
        SHAPE,
        (n) => progress.bytes(n),
        (columns) => (at = columns.at),
      )) {
        rowsRead += 1;
        const v = (column: (typeof COLUMNS)[number]) => textOrNull(r[at[column]!]);
        const status = v('status') ?? 'unknown';
        if (status !== 'current') {
          skipped[status] = (skipped[status] ?? 0) + 1;
          continue;
        }
        const id = v('address_id');
        if (id === null) {
          skipped['without address_id'] = (skipped['without address_id'] ?? 0) + 1;
          continue;
        }
        const pending = sink.add('address', [
          ++seq,
          id,
          v('street_id'),
          v('municipality_id'),
          v('streetname_nl'),
          v('streetname_fr'),
          v('streetname_de'),
          v('house_number'),
          v('box_number'),
          v('postcode'),
          v('municipality_name_nl'),
          v('municipality_name_fr'),
          v('municipality_name_de'),
          v('postname_nl'),
          v('postname_fr'),
          v('region_code'),
          numberOrNull(r[at['EPSG:4326_lat']!]),
          numberOrNull(r[at['EPSG:4326_lon']!]),
        ]);
        if (pending) await pending;
      }
    }
    return { snapshotDate: null, skipped, rowsRead };
  },
};
