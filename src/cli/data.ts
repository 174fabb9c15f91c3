// lead-intake data import enterprises|addresses|vehicles PATH... and data status
// (docs/design.md section 6): the reference databases, imported from their published files.
import os from 'node:os';
import { parseArgs } from 'node:util';
import { importReference, referenceImporter, type ImportProgress } from '../reference/import/import.ts';
import { SOURCES, type SourceName } from '../reference/import/reference-source.ts';
import { SOURCE_DEFINITIONS } from '../reference/data-sets.ts';
import {
  type CliIo,
  type CommandGroup,
  HelpRequest,
  UsageError,
  parseCommandLine,
  printJson,
  runSubcommand,
  withDatabase,
} from './command.ts';

const HELP = `Usage:
  lead-intake data import enterprises <KboOpenData_....zip | folder>
      the KBO/BCE Open Data full dump (meta, code, enterprise, establishment, denomination,
      address, contact, activity .csv)
  lead-intake data import addresses <file.csv | file.csv.gz | folder | zip> [...]
      BeST Address CSVs (BOSA), one per region or one for Belgium; only 'current' rows serve
  lead-intake data import vehicles <file.csv | file.csv.gz | folder | zip> [...]
      EEA "CO2 emissions from new passenger cars" CSVs, any year's header spelling
  lead-intake data status
      per database: rows, source files, snapshot date, imported_at

An import streams its files, shows progress on a terminal (stderr), and prints a JSON
summary (rows, skipped rows by reason, seconds, rows_per_second, peak_rss_mb). The new data
replaces the old in one step once complete; the server keeps serving meanwhile.`;

async function importCommand(args: string[], io: CliIo): Promise<void> {
  const command = 'data import';
  if (args.includes('--help') || args.includes('-h')) throw new HelpRequest(HELP);
  let positionals: string[];
  try {
    ({ positionals } = parseArgs({ args, options: {}, strict: true, allowPositionals: true }));
  } catch (error) {
    throw new UsageError(command, (error as Error).message.split('. ')[0]!);
  }
  const [name, ...paths] = positionals;
  if (name === undefined) throw new UsageError(command, `missing database (${SOURCES.join(', ')})`);
  if (!SOURCES.includes(name as SourceName))
    throw new UsageError(command, `unknown database ${JSON.stringify(name)} (${SOURCES.join(', ')})`);
  if (paths.length === 0) throw new UsageError(command, 'missing PATH');
  // The lowest CPU priority: on a machine the server shares, a long import takes only the
  // time the server leaves idle, so pushes and lookups keep their pace. Only when the
  // command owns its process (not when a test runs it in its own).
  if (io.stderr === process.stderr) {
    try {
      os.setPriority(19);
    } catch {
      // Not permitted here: the import still runs, at normal priority.
    }
  }
  const progress = progressPrinter(io);
  const summary = await withDatabase(io, (database, config) =>
    importReference(
      referenceImporter(database, config),
      SOURCE_DEFINITIONS[name as SourceName],
      paths,
      progress.update,
    ),
  );
  progress.done();
  printJson(io, summary);
}

async function statusCommand(args: string[], io: CliIo): Promise<void> {
  parseCommandLine('data status', HELP, args, {});
  const records = await withDatabase(io, (database, config) => referenceImporter(database, config).status());
  printJson(
    io,
    Object.fromEntries(
      SOURCES.map((source) => {
        const record = records[source];
        return [
          source,
          record
            ? {
                rows: record.rows,
                files: record.files,
                snapshot_date: record.snapshot_date,
                imported_at: record.imported_at,
              }
            : null,
        ];
      }),
    ),
  );
}

/** A one-line progress display on a terminal, at most a few times a second; nothing otherwise. */
function progressPrinter(io: CliIo) {
  const terminal = (io.stderr as { isTTY?: boolean }).isTTY === true;
  let last = 0;
  return {
    update(progress: ImportProgress) {
      if (!terminal) return;
      const now = Date.now();
      if (now - last < 250 && progress.phase === 'reading') return;
      last = now;
      const percent = progress.totalBytes
        ? Math.min(100, (100 * progress.bytes) / progress.totalBytes).toFixed(1)
        : '?';
      const text =
        progress.phase === 'reading'
          ? `reading ${percent}%, ${progress.rows.toLocaleString('en')} rows`
          : 'building indexes and swapping in';
      io.stderr.write(`\r\x1b[K${text}`);
    },
    done() {
      if (terminal) io.stderr.write('\r\x1b[K');
    },
  };
}

export const dataCommands: CommandGroup = {
  name: 'data',
  summary: 'import the reference databases (enterprises, addresses, vehicles); status',
  run: (args, io) => runSubcommand('data', HELP, args, io, { import: importCommand, status: statusCommand }),
};
