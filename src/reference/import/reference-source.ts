// One shape for the three reference databases (docs/design.md section 6): a source reads its
// published files and hands rows to a sink, table by table; the import pipeline
// (import.ts) stores them in staging and swaps them in; each dialect's store knows how to
// index and search them. Routes only read.
import type { InputEntry } from './input-files.ts';

export const SOURCES = ['enterprises', 'addresses', 'vehicles'] as const;
export type SourceName = (typeof SOURCES)[number];

export type ColumnType = 'int' | 'text' | 'real';
export type TableColumns = readonly (readonly [name: string, type: ColumnType])[];

/** Where parsed rows go: buffered and written in batches; await the promise when one is given. */
export interface RowSink {
  add(table: string, row: unknown[]): Promise<void> | undefined;
}

export interface ReadProgress {
  /** Bytes read so far of `total` (all inputs). */
  bytes(count: number): void;
}

export interface SourceSummary {
  /** What the published files say about their date, ISO (KBO meta SnapshotDate); else null. */
  readonly snapshotDate: string | null;
  /** Rows read but not kept, by reason ("retired", "establishment rows", ...). */
  readonly skipped: Readonly<Record<string, number>>;
  /** Data rows read from the files, kept or not. */
  readonly rowsRead: number;
}

export interface ReferenceSourceDefinition {
  readonly name: SourceName;
  /** Staging tables, their columns in the order rows carry them; those not transient are kept. */
  readonly tables: Readonly<Record<string, TableColumns>>;
  /**
   * Staging-only tables: the source writes them for the dialect's finish statements to build
   * the kept tables from (each data set's `*-indexes.repository.ts`); never swapped in.
   */
  readonly transient?: readonly string[];
  /** Integer primary keys by table: a duplicate row in the source is kept once (the first). */
  readonly keys: Readonly<Record<string, string>>;
  /** The entries it will read, in order; refuses (ImportRefused) when one is missing. */
  select(entries: readonly InputEntry[]): InputEntry[];
  read(entries: readonly InputEntry[], sink: RowSink, progress: ReadProgress): Promise<SourceSummary>;
}

/** `dd-mm-yyyy` (KBO) -> ISO date, or null when empty or not a date. */
export function isoDate(text: string | undefined): string | null {
  const match = /^(\d{2})-(\d{2})-(\d{4})$/.exec(text ?? '');
  return match ? `${match[3]}-${match[2]}-${match[1]}` : null;
}

/** Trimmed text, or null for an empty field. */
export function textOrNull(text: string | undefined): string | null {
  const trimmed = text?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
}

/** A finite number, or null for an empty or malformed field (EEA files use both `,` and `.`). */
export function numberOrNull(text: string | undefined): number | null {
  const trimmed = text?.trim().replace(',', '.') ?? '';
  if (trimmed === '') return null;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : null;
}
