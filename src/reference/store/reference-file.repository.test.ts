// The reference files' statement caches: texts built per query (a placeholder per candidate
// brand of a VIN) never make a file hold more than REFERENCE_STATEMENT_CACHE_SIZE.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase } from '../../db/database.ts';
import { SOURCE_DEFINITIONS } from '../data-sets.ts';
import { SAMPLES_DIR } from '../demo-samples.ts';
import { importReference, referenceImporter } from '../import/import.ts';
import { SqliteVehicleReader } from '../vehicles/vehicle-sqlite.repository.ts';
import { REFERENCE_STATEMENT_CACHE_SIZE, ReferenceFile } from './reference-file.repository.ts';
import { liveFile } from './sqlite-files.ts';

let dataDir: string;
let file: ReferenceFile;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reference-statements-'));
  const database = openDatabase({ databaseUrl: undefined, dataDir, sqliteSynchronous: 'NORMAL' });
  try {
    const importer = referenceImporter(database, { dataDir });
    await importReference(importer, SOURCE_DEFINITIONS.vehicles, [path.join(SAMPLES_DIR, 'vehicles')]);
  } finally {
    await database.close();
  }
  file = new ReferenceFile(liveFile(dataDir, 'vehicles'));
});

afterAll(() => {
  file?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

it(`keeps at most ${REFERENCE_STATEMENT_CACHE_SIZE} statements per file, however many texts the queries make`, async () => {
  const reader = new SqliteVehicleReader(file);
  const brands = await reader.brands({ limit: 1, offset: 0 });
  const known = String(brands[0]!.name);
  for (let candidates = 1; candidates <= REFERENCE_STATEMENT_CACHE_SIZE * 2; candidates++) {
    const names = Array.from({ length: candidates }, (_, i) => (i === 0 ? known : `NO SUCH BRAND ${i}`));
    expect(await reader.brandOf(names)).toBe(known);
  }
  expect(file.cachedStatements).toBe(REFERENCE_STATEMENT_CACHE_SIZE);
});
