// EEA "CO2 emissions from new passenger cars" CSVs: one row per registration group, tens
// of millions a year. The catalogue keeps one version per distinct make, commercial name,
// type, variant, version, fuel, fuel mode, engine size and power, summing registrations
// and collecting the years. Header spellings change by year (`Ec (cm3)` / `ec (cm3)`,
// `R` / `r`, tabs or commas): columns are matched without regard to case.
// Memory stays flat: versions are summed in bounded windows and the windows summed in the
// database at the end of the import.
import { hash } from 'node:crypto';
import { ImportRefused } from '../import/import-errors.ts';
import { numberOrNull, textOrNull, type ReferenceSourceDefinition } from '../import/reference-source.ts';
import { csvRecords, type CsvShape } from '../import/csv-records.ts';

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

/** What a window of the file has seen of one version: its first row, and registrations by year. */
interface Seen {
  readonly row: readonly (string | number | null)[];
  readonly firstSeen: number;
  readonly registrations: Map<number | null, number>;
}

/** Versions gathered in memory before they go to staging: bounds the import's memory (about 30 MB). */
export const VERSIONS_PER_WINDOW = 20_000;

const IDENTITY = [
  ['brand', 'text'],
  ['model', 'text'],
  ['type', 'text'],
  ['variant', 'text'],
  ['version', 'text'],
  ['fuel', 'text'],
  ['fuel_mode', 'text'],
  ['engine_cc', 'int'],
  ['power_kw', 'int'],
] as const;

const FIRST_VALUES = [
  ['mass_kg', 'int'],
  ['co2_wltp', 'real'],
  ['electric_range_km', 'int'],
] as const;

/** The catalogue: one row per version, `seq` its rank by registrations (most registered first). */
const VERSION = [
  ['id', 'text'],
  ...IDENTITY,
  ...FIRST_VALUES,
  ['years', 'text'],
  ['registrations', 'int'],
  ['seq', 'int'],
] as const;

/** Staging only: a version as a window first saw it; the earliest window's row is the version's. */
const SIGHTING = [['id', 'text'], ...IDENTITY, ...FIRST_VALUES, ['first_seen', 'int']] as const;

/** Staging only: registrations of a version in a year (null: the row and file name gave none), per window. */
const REGISTRATION = [
  ['id', 'text'],
  ['year', 'int'],
  ['registrations', 'int'],
] as const;

/**
 * The EEA source. Versions are counted in windows of `versionsPerWindow` in memory, then
 * staged; the dialect's finish statements (vehicle-indexes.repository.ts) sum the
 * windows into `version`, so memory stays flat however many versions and rows a file has.
 */
export function eeaSource(versionsPerWindow = VERSIONS_PER_WINDOW): ReferenceSourceDefinition {
  return {
    name: 'vehicles',
    keys: { version: 'seq' },
    tables: { version: VERSION, sighting: SIGHTING, registration: REGISTRATION },
    transient: ['sighting', 'registration'],

    select(entries) {
      const csvs = entries.filter((entry) => /\.csv$/i.test(entry.name));
      if (csvs.length === 0) throw new ImportRefused('no EEA CO2 CSV given (expected .csv or .csv.gz files)');
      return csvs;
    },

    async read(entries, sink, progress) {
      const window = new Map<string, Seen>();
      const skipped: Record<string, number> = {};
      let rowsRead = 0;
      const stage = async () => {
        for (const [key, seen] of window) {
          // The id is stable across imports: a partner may keep it in a quote.
          const id = hash('sha256', key, 'base64url').slice(0, 16);
          // A promise only when a batch goes to staging: no await (a microtask) per row.
          const sighting = sink.add('sighting', [id, ...seen.row, seen.firstSeen]);
          if (sighting) await sighting;
          for (const [year, registrations] of seen.registrations) {
            const registration = sink.add('registration', [id, year, registrations]);
            if (registration) await registration;
          }
        }
        window.clear();
      };
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
          let seen = window.get(key);
          if (!seen) {
            if (window.size >= versionsPerWindow) await stage();
            seen = {
              row: [
                ...identity,
                whole(v('M (kg)')),
                numberOrNull(v('Ewltp (g/km)') ?? ''),
                whole(v('Electric range (km)')),
              ],
              firstSeen: rowsRead,
              registrations: new Map(),
            };
            window.set(key, seen);
          }
          const year = whole(v('Year')) ?? (Number.isFinite(fileYear) ? fileYear : null);
          seen.registrations.set(year, (seen.registrations.get(year) ?? 0) + (whole(v('R')) ?? 1));
        }
      }
      await stage();
      return { snapshotDate: null, skipped, rowsRead };
    },
  };
}

export const vehicleSource = eeaSource();

function whole(text: string | null): number | null {
  const value = numberOrNull(text ?? '');
  return value === null ? null : Math.round(value);
}
