// First start in development: a reference database that was never imported gets the
// repository's generated sample (samples/, a few hundred rows in the published format),
// so a newcomer can query the car, address and company databases at once. Never in
// production, and never over data an operator imported.
import path from 'node:path';
import type { Config } from '../config.ts';
import type { DatabaseHandle } from '../db/database.ts';
import { importReference, referenceImporter } from './import/import.ts';
import { SOURCES } from './import/reference-source.ts';
import { SOURCE_DEFINITIONS } from './data-sets.ts';

export const SAMPLES_DIR = path.resolve(import.meta.dirname, '..', '..', 'samples');

export interface SampleLog {
  info(object: object, message: string): void;
  error(object: object, message: string): void;
}

export async function importSamplesIfEmpty(database: DatabaseHandle, config: Config, log: SampleLog): Promise<void> {
  if (config.production) return;
  try {
    const importer = referenceImporter(database, config);
    const status = await importer.status();
    for (const source of SOURCES) {
      if (status[source] !== null) continue;
      const summary = await importReference(importer, SOURCE_DEFINITIONS[source], [path.join(SAMPLES_DIR, source)]);
      log.info({ database: source, rows: summary.rows }, 'imported the generated sample reference data');
    }
  } catch (error) {
    // A convenience: a server that could not load the samples still serves.
    log.error({ err: error }, 'could not import the sample reference data');
  }
}
