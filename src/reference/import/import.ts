// The one import pipeline (docs/design.md section 6): list the inputs, let the source parse
// them as they stream, write rows to staging in batches, then index and swap. Memory holds
// one batch per table, whatever the size of the files.
import type { DatabaseHandle } from '../../db/database.ts';
import type { Config } from '../../config.ts';
import { listInputs } from './input-files.ts';
import type { ReferenceSourceDefinition, RowSink } from './reference-source.ts';
import type { ImportRecord, ReferenceImporter } from '../store/staging.ts';
import { SqliteReferenceImporter } from '../store/sqlite-importer.repository.ts';
import { PostgresReferenceImporter } from '../store/postgres-importer.repository.ts';

const BATCH_ROWS = 5_000;

export interface ImportProgress {
  readonly bytes: number;
  readonly totalBytes: number;
  readonly rows: number;
  /** Reading the files, or building indexes and swapping once they are read. */
  readonly phase: 'reading' | 'indexing';
}

export interface ImportSummary extends ImportRecord {
  /** Data rows read from the files (an EEA file has many rows per catalogue version). */
  readonly rows_read: number;
  readonly seconds: number;
  readonly rows_per_second: number;
  readonly peak_rss_mb: number;
}

export function referenceImporter(database: DatabaseHandle, config: Pick<Config, 'dataDir'>): ReferenceImporter {
  return database.dialect === 'postgres'
    ? new PostgresReferenceImporter(database.db)
    : new SqliteReferenceImporter(config.dataDir);
}

export async function importReference(
  importer: ReferenceImporter,
  source: ReferenceSourceDefinition,
  paths: readonly string[],
  onProgress: (progress: ImportProgress) => void = () => {},
): Promise<ImportSummary> {
  const started = performance.now();
  let peakRss = process.memoryUsage.rss();
  const entries = source.select(await listInputs(paths));
  const totalBytes = entries.reduce((sum, entry) => sum + entry.size, 0);
  const staging = await importer.begin(source);
  const buffers = new Map<string, unknown[][]>(Object.keys(source.tables).map((table) => [table, []]));
  const counts: Record<string, number> = Object.fromEntries(Object.keys(source.tables).map((table) => [table, 0]));
  let bytes = 0;
  let rows = 0;
  const report = (phase: ImportProgress['phase']) => {
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
    onProgress({ bytes, totalBytes, rows, phase });
  };
  const flush = async (table: string) => {
    const batch = buffers.get(table)!;
    if (batch.length === 0) return;
    buffers.set(table, []);
    await staging.insert(table, batch);
    report('reading');
  };
  const sink: RowSink = {
    add(table, row) {
      const batch = buffers.get(table)!;
      batch.push(row);
      counts[table]! += 1;
      rows += 1;
      return batch.length >= BATCH_ROWS ? flush(table) : undefined;
    },
  };
  try {
    const summary = await source.read(entries, sink, {
      bytes(count) {
        bytes += count;
      },
    });
    for (const table of buffers.keys()) await flush(table);
    report('indexing');
    const transient = new Set(source.transient);
    const record = await staging.finish({
      source: source.name,
      files: entries.map((entry) => entry.origin),
      snapshot_date: summary.snapshotDate,
      // Tables the source wrote; those the finish statements fill are counted there.
      rows: Object.fromEntries(Object.entries(counts).filter(([table, count]) => count > 0 && !transient.has(table))),
      skipped: summary.skipped,
      imported_at: new Date().toISOString(),
    });
    const seconds = (performance.now() - started) / 1000;
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
    return {
      ...record,
      rows_read: summary.rowsRead,
      seconds: round(seconds),
      rows_per_second: Math.round(summary.rowsRead / seconds),
      peak_rss_mb: Math.round(peakRss / 2 ** 20),
    };
  } catch (error) {
    await staging.abort().catch(() => {});
    throw error;
  }
}

const round = (value: number) => Math.round(value * 100) / 100;
