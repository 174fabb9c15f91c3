// What the import pipeline needs of a dialect (docs/design.md section 6): a staging area
// that becomes the live data in one atomic step, and what each data set builds from its
// rows once they are in (its indexes and search tables). SQLite keeps each database in a
// file of its own next to the main one; PostgreSQL in a schema of its own. Neither
// touches the tables pushes write.
import type { ReferenceSourceDefinition, SourceName } from '../import/reference-source.ts';

export interface ImportRecord {
  readonly source: SourceName;
  readonly files: readonly string[];
  readonly snapshot_date: string | null;
  readonly rows: Readonly<Record<string, number>>;
  readonly skipped: Readonly<Record<string, number>>;
  readonly imported_at: string;
}

export interface StagingImport {
  /** Rows in the order of the table's columns. */
  insert(table: string, rows: readonly unknown[][]): Promise<void>;
  /**
   * Indexes and search entries, then the swap: readers see all of it or none. Kept tables
   * missing from `record.rows` (filled by the finish statements) are counted; the record
   * as stored is returned.
   */
  finish(record: ImportRecord): Promise<ImportRecord>;
  /** Drops the staging data; the live data stays as it was. */
  abort(): Promise<void>;
}

export interface ReferenceImporter {
  begin(source: ReferenceSourceDefinition): Promise<StagingImport>;
  status(): Promise<Record<SourceName, ImportRecord | null>>;
}

/**
 * A statement run over `table` in ranges of `rows` by its integer `key` (the statement's two
 * parameters: after, up to and including). A JavaScript function a statement calls
 * (`spaced_words`) keeps every call's values alive until the statement returns, so over six
 * million addresses in one statement the import's memory grew to 800 MB; in ranges it stays flat.
 */
export interface RangedStatement {
  readonly sql: string;
  readonly table: string;
  readonly key: string;
  readonly rows: number;
}

export type FinishStep = string | RangedStatement;

/** Staging tables' names (`"schema"."address__s1a2b3c"`), by the table's own. */
export type StagingNames = (table: string) => string;

/** What one data set builds from its imported rows, on each dialect. */
export interface DataSetIndexes {
  /** Run in order on the staging file. */
  readonly sqlite: readonly FinishStep[];
  /** Run in order on the staging tables, named through `t`, with the schema's fold() named `f`. */
  readonly postgres: (t: StagingNames, f: string) => readonly string[];
  /** Tables the PostgreSQL statements derive from the imported ones: swapped in with them. */
  readonly postgresDerivedTables: readonly string[];
}
