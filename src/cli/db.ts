// lead-intake db compact (docs/design.md section 14; docs/postgresql.md, "Erased data and db
// compact"): rewrites the tables that hold personal data, so the bytes of erased people
// leave the data files. Progress goes to stderr as it happens; the report, table by table,
// to stdout as JSON.
import { compactPersonalData } from '../party/index.ts';
import { type CliIo, type CommandGroup, parseCommandLine, printJson, runSubcommand, withDatabase } from './command.ts';

const HELP = `Usage:
  lead-intake db compact
      rewrites every table that holds personal data, so what erasures and retention deleted
      leaves the data files: on PostgreSQL VACUUM FULL table by table, each holding an ACCESS
      EXCLUSIVE lock on its table while it runs (requests on that table wait; a table in use
      is tried again); on SQLite VACUUM of the database under its write lock. Prints progress
      on stderr and {"dialect", "tables": [{"table", "lock", "ms", "bytes_before",
      "bytes_after"}]} on stdout.`;

async function compact(args: string[], io: CliIo): Promise<void> {
  parseCommandLine('db compact', HELP, args, {});
  const report = await withDatabase(io, (database) =>
    compactPersonalData(database, (line) => io.stderr.write(`${line}\n`)),
  );
  printJson(io, report);
}

export const dbCommands: CommandGroup = {
  name: 'db',
  summary: 'rewrite the tables that hold personal data (compact)',
  run: (args, io) => runSubcommand('db', HELP, args, io, { compact }),
};
