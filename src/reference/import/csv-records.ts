// Published CSVs as records: the header is read first and checked against the columns a
// source needs (case-insensitive, since the EEA's spelling changes by year), then rows
// stream one at a time as arrays, addressed by the header's positions.
import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { ImportRefused } from './import-errors.ts';
import type { InputEntry } from './input-files.ts';

export interface CsvColumns {
  /** Position of each wanted column, by our name for it. */
  readonly at: Readonly<Record<string, number>>;
}

/**
 * `wanted` maps our name to the header spellings that mean it (compared case-insensitively,
 * spaces collapsed); `required` names those that must be there.
 */
export interface CsvShape {
  readonly wanted: Readonly<Record<string, readonly string[]>>;
  readonly required: readonly string[];
}

export async function* csvRecords(
  entry: InputEntry,
  shape: CsvShape,
  onBytes: (count: number) => void,
  onHeader: (columns: CsvColumns) => void = () => {},
): AsyncGenerator<string[]> {
  const stream = await entry.open(onBytes);
  const iterator = stream[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.done) throw new ImportRefused(`${entry.origin}: empty file, expected a header line`);
  const head = Buffer.isBuffer(first.value) ? first.value : Buffer.from(first.value as string);
  const delimiter = sniffDelimiter(
    head.subarray(0, head.indexOf(10) === -1 ? head.length : head.indexOf(10)).toString(),
  );
  const parser = parse({ delimiter, bom: true, relax_column_count: true, skip_empty_lines: true, relax_quotes: true });
  Readable.from(
    (async function* () {
      yield head;
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value as Buffer;
    })(),
  ).pipe(parser);
  let columns: CsvColumns | undefined;
  for await (const record of parser as AsyncIterable<string[]>) {
    if (!columns) {
      columns = matchHeader(entry, record, shape);
      onHeader(columns);
      continue;
    }
    yield record;
  }
  if (!columns) throw new ImportRefused(`${entry.origin}: empty file, expected a header line`);
}

/** Comma, tab or semicolon: whichever the header line has most of (the EEA has used tabs and commas). */
function sniffDelimiter(line: string): string {
  const counts = [',', '\t', ';'].map((d) => [d, line.split(d).length] as const);
  return counts.reduce((best, next) => (next[1] > best[1] ? next : best))[0];
}

function normalise(name: string): string {
  return name
    .replace(/^\uFEFF/, '')
    .trim()
    .replace(/\s+/g, ' ')
    .toLowerCase();
}

function matchHeader(entry: InputEntry, header: readonly string[], shape: CsvShape): CsvColumns {
  const positions = new Map(header.map((name, index) => [normalise(name), index]));
  const at: Record<string, number> = {};
  for (const [ours, spellings] of Object.entries(shape.wanted)) {
    const found = spellings.map((s) => positions.get(normalise(s))).find((p) => p !== undefined);
    if (found !== undefined) at[ours] = found;
  }
  const missing = shape.required.filter((name) => at[name] === undefined).map((name) => shape.wanted[name]![0]!);
  if (missing.length > 0) {
    throw new ImportRefused(
      `${entry.origin}: not the expected format, missing column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`,
    );
  }
  return { at };
}
