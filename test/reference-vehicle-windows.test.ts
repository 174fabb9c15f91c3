// The EEA import counts versions in bounded windows and sums the windows in the database
// (src/reference/vehicles/eea.ts): a version met in many windows, years apart and in two files, must come
// out exactly as if the whole file had fit in memory, on both databases.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importReference, referenceImporter } from '../src/reference/import/import.ts';
import { eeaSource } from '../src/reference/vehicles/eea.ts';
import { callApi } from './support/api-client.ts';
import { createTenant, startTestServer, type Tenant, type TestServer } from './support/test-server.ts';
import { csv, EEA_RECENT, tempDir } from './support/reference-files.ts';

let server: TestServer;
let reader: Tenant;

beforeAll(async () => {
  server = await startTestServer();
  reader = await createTenant(server.database.handle, ['vehicle:read']);
});
afterAll(() => server.close());

interface Expected {
  brand: string;
  model: string;
  version: string;
  mass_kg: number;
  years: number[];
  registrations: number;
  firstRow: number;
}

/** Two files of rows over 9 versions in a shuffled order; the version's mass changes after its first row. */
function eeaRows(): { files: string[]; expected: Expected[] } {
  const dir = tempDir();
  const byVersion = new Map<string, Expected>();
  let rowNumber = 0;
  const files = [2021, 2023].map((year, f) => {
    const rows: string[][] = [EEA_RECENT];
    for (let i = 0; i < 120; i += 1) {
      const n = (i * 7 + f * 3 + ((i * i) % 5)) % 9;
      const model = `MODEL ${n % 3}`;
      const version = `V${n}`;
      const registrations = 1 + ((i * 13) % 17);
      // Every fourth row of the second file has no year column value: the file name's year counts.
      const rowYear = f === 1 && i % 4 === 0 ? '' : String(year - (i % 2));
      const mass = 1000 + n * 10 + i;
      rowNumber += 1;
      let seen = byVersion.get(version);
      if (!seen) {
        seen = { brand: 'MAKE', model, version, mass_kg: mass, years: [], registrations: 0, firstRow: rowNumber };
        byVersion.set(version, seen);
      }
      seen.registrations += registrations;
      const effectiveYear = rowYear === '' ? year : Number(rowYear);
      if (!seen.years.includes(effectiveYear)) seen.years.push(effectiveYear);
      rows.push([
        String(i),
        'BE',
        'Make',
        model,
        'T',
        'VA',
        version,
        'petrol',
        'M',
        '1498',
        '110',
        String(mass),
        '128',
        '',
        String(registrations),
        rowYear,
      ]);
    }
    const file = path.join(dir, `CO2_passenger_cars_${year}.csv`);
    fs.writeFileSync(file, csv(rows));
    return file;
  });
  const expected = [...byVersion.values()]
    .map((v) => ({ ...v, years: v.years.sort((a, b) => a - b) }))
    .sort((a, b) => b.registrations - a.registrations || a.firstRow - b.firstRow);
  return { files, expected };
}

const catalogue = async () =>
  (await callApi(server, reader, 'GET', '/vehicles/versions?limit=100')).body.items.map((item: any) => ({
    id: item.id,
    model: item.model,
    version: item.version,
    mass_kg: item.mass_kg,
    years: item.years,
    registrations: item.registrations,
  }));

describe('vehicles import in bounded windows', () => {
  it('gives the same catalogue with windows of 2 versions as with the whole file in one', async () => {
    const { files, expected } = eeaRows();
    const importer = referenceImporter(server.database.handle, server.config);

    const whole = await importReference(importer, eeaSource(), files);
    expect(whole.rows).toEqual({ version: 9 });
    const inOne = await catalogue();
    expect(inOne.map(({ id: _, ...version }: any) => version)).toEqual(
      expected.map(({ brand: _b, firstRow: _f, ...version }) => version),
    );

    const windowed = await importReference(importer, eeaSource(2), files);
    expect(windowed.rows).toEqual({ version: 9 });
    expect(await catalogue()).toEqual(inOne);
  });
});
