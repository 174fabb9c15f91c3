// lead-intake migrate: applies pending migrations (serve also does on start), for deploys
// that migrate in a step of their own.
import { type CommandGroup, parseCommandLine, printJson, withDatabase } from './command.ts';
import { migrateToLatest } from '../db/migrate.ts';

const HELP = `Usage:
  lead-intake migrate   apply pending migrations; prints {"applied": [names applied now]}`;

export const migrateCommand: CommandGroup = {
  name: 'migrate',
  summary: 'apply pending database migrations',
  async run(args, io) {
    parseCommandLine('migrate', HELP, args, {});
    printJson(io, { applied: await withDatabase(io, (database) => migrateToLatest(database.db), { migrate: false }) });
  },
};
