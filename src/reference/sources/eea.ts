// EEA "CO2 emissions from new passenger cars" CSVs: one row per registration group, tens
// of millions a year. The catalogue keeps one version per distinct make, commercial name,
// type, variant, version, fuel, fuel mode, engine size and power, summing registrations
// and collecting the years. Header spellings change by year (`Ec (cm3)` / `ec (cm3)`,
// `R` / `r`, tabs or commas): columns are matched without regard to case.
// Memory grows with the number of distinct versions (300k at European scale), never with
// the number of rows read.
import { createHash } from 'node:crypto';
import { ImportRefused } from '../import-errors.ts';
import { numberOrNull, textOrNull, type ReferenceSourceDefinition } from '../reference-source.ts';
import { csvRecords, type CsvShape } from './csv-records.ts';

const SHAPE: CsvShape = {
  wanted: {
    Mk: ['Mk'],
    Cn: ['Cn'],
    T: ['T'],
    Va: ['Va'],
    Ve: ['Ve'],
    Ft: ['Ft'],
    Fm: ['Fm'],
    'Ec (cm3)': ['Ec (cm3)'],
    'Ep (KW)': ['Ep (KW)'],
    'M (kg)': ['M (kg)'],
    'Ewltp (g/km)': ['Ewltp (g/km)'],
    'Electric range (km)': ['Electric range (km)'],
    R: ['R'],
    Year: ['Year'],
  },
  required: ['Mk', 'Cn', 'T', 'Va', 'Ve', 'Ft', 'Ec (cm3)', 'Ep (KW)'],
};

interface Version {
  readonly row: (string | number | null)[];
  readonly years: Set<number>;
  registrations: number;
}

const COLUMNS = [
  ['id', 'text'],
  ['brand', 'text'],
  ['model', 'text'],
  ['type', 'text'],
  ['variant', 'text'],
  ['version', 'text'],
  ['fuel', 'text'],
  ['fuel_mode', 'text'],
  ['engine_cc', 'int'],
  ['power_kw', 'int'],
  ['mass_kg', 'int'],
  ['co2_wltp', 'real'],
  ['electric_range_km', 'int'],
  ['years', 'text'],
  ['registrations', 'int'],
  ['seq', 'int'],
] as const;

export const vehicleSource: ReferenceSourceDefinition = {
  name: 'vehicles',
  keys: { version: 'seq' },
  tables: { version: COLUMNS },

  select(entries) {
    const csvs = entries.filter((entry) => /\.csv$/i.test(entry.name));
    if (csvs.length === 0) throw new ImportRefused('no EEA CO2 CSV given (expected .csv or .csv.gz files)');
    return csvs;
  },

  async read(entries, sink, progress) {
    const versions = new Map<string, Version>();
    const skipped: Record<string, number> = {};
    let rowsRead = 0;
    for (const entry of entries) {
      const fileYear = Number(/(?:19|20)\d{2}/.exec(entry.name)?.[0] ?? Number.NaN);
      let at: Readonly<Record<string, number>> = {};
      for await (const r of csvRecords(
        entry,
        SHAPE,
        (n) => progress.bytes(n),
        (columns) => (at = columns.at),
      )) {
        rowsRead += 1;
        const v = (column: string) => (at[column] === undefined ? null : textOrNull(r[at[column]!]));
        const brand = v('Mk')?.toUpperCase() ?? null;
        const model = v('Cn')?.toUpperCase() ?? null;
        if (brand === null || model === null) {
          skipped['without make or name'] = (skipped['without make or name'] ?? 0) + 1;
          continue;
        }
        const identity = [
          brand,
          model,
          v('T'),
          v('Va'),
          v('Ve'),
          v('Ft')?.toLowerCase() ?? null,
          v('Fm'),
          whole(v('Ec (cm3)')),
          whole(v('Ep (KW)')),
        ] as const;
        const key = identity.join('\u0001');
        let version = versions.get(key);
        if (!version) {
          version = {
            row: [
              ...identity,
              whole(v('M (kg)')),
              numberOrNull(v('Ewltp (g/km)') ?? ''),
              whole(v('Electric range (km)')),
            ],
            years: new Set(),
            registrations: 0,
          };
          versions.set(key, version);
        }
        const year = whole(v('Year')) ?? (Number.isFinite(fileYear) ? fileYear : null);
        if (year !== null) version.years.add(year);
        version.registrations += whole(v('R')) ?? 1;
      }
    }
    // Most registered first: the catalogue's key order is its popularity, so a match that
    // stops at a page's rows returns the versions people drive.
    const ordered = [...versions].sort(([, a], [, b]) => b.registrations - a.registrations);
    let seq = 0;
    for (const [key, version] of ordered) {
      const id = createHash('sha256').update(key).digest('base64url').slice(0, 16);
      const years = JSON.stringify([...version.years].sort((a, b) => a - b));
      const pending = sink.add('version', [id, ...version.row, years, version.registrations, ++seq]);
      if (pending) await pending;
    }
    return { snapshotDate: null, skipped, rowsRead };
  },
};

function whole(text: string | null): number | null {
  const value = numberOrNull(text ?? '');
  return value === null ? null : Math.round(value);
}
