// What the import pipeline and the routes need of a dialect (docs/design.md section 6): a
// staging area that becomes the live data in one atomic step, and the reads behind the
// endpoints. SQLite keeps each database in a file of its own next to the main one;
// PostgreSQL in a schema of its own. Neither touches the tables pushes write.
import type { ReferenceSourceDefinition, SourceName } from '../reference-source.ts';

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

export type Row = Record<string, unknown>;

export interface Page {
  readonly offset: number;
  /** One more than the page size is asked for: it says whether a next page exists. */
  readonly limit: number;
}

export interface EnterpriseQuery extends Page {
  readonly words?: readonly string[];
  /** Ranges of ten-digit numbers (as integers) when the query is a number being typed. */
  readonly numberRanges?: readonly (readonly [number, number])[];
  readonly zipcode?: string;
}

export interface AddressQuery extends Page {
  readonly words: readonly string[];
  readonly zipcode?: string;
  readonly municipality?: readonly string[];
}

export interface VersionQuery extends Page {
  readonly brand?: string;
  readonly model?: string;
  readonly fuel?: string;
  readonly year?: number;
  readonly words?: readonly string[];
}

/** Code descriptions are asked in this language first (KBO codes: NL, FR, DE, EN). */
export type CodeLanguage = 'NL' | 'FR' | 'DE' | 'EN';

/**
 * The reads, one snapshot each: an enterprise's rows come from one version of the data
 * even when an import swaps in the middle of the request.
 */
export interface ReferenceReader {
  enterprise(number: number, language: CodeLanguage): Promise<EnterpriseRows | undefined>;
  searchEnterprises(query: EnterpriseQuery, language: CodeLanguage): Promise<EnterpriseSummaryRows[]>;
  address(id: string): Promise<Row | undefined>;
  searchAddresses(query: AddressQuery): Promise<Row[]>;
  postalCodes(words: readonly string[], page: Page): Promise<Row[]>;
  brands(page: Page): Promise<Row[]>;
  models(brand: string, page: Page): Promise<Row[] | undefined>;
  versions(query: VersionQuery): Promise<Row[]>;
  version(id: string): Promise<Row | undefined>;
  brandOf(candidates: readonly string[]): Promise<string | undefined>;
}

export interface EnterpriseSummaryRows {
  readonly enterprise: Row;
  readonly names: readonly Row[];
  readonly address: Row | undefined;
}

export interface EnterpriseRows extends EnterpriseSummaryRows {
  readonly addresses: readonly Row[];
  readonly contacts: readonly Row[];
  readonly activities: readonly Row[];
  readonly establishment_count: number;
}
