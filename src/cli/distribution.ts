// lead-intake distribution create|list
import { listDistributions } from '../distributions/distribution.repository.ts';
import { createDistribution } from '../distributions/distribution.service.ts';
import {
  type CliIo,
  type CommandGroup,
  parseCommandLine,
  printJson,
  requiredOption,
  runSubcommand,
  withDatabase,
} from './command.ts';

const HELP = `Usage:
  lead-intake distribution create --name <name>   create a distribution; prints {"id", "name", "created_at"}
  lead-intake distribution list                   print every distribution as a JSON array`;

async function create(args: string[], io: CliIo): Promise<void> {
  const command = 'distribution create';
  const { values } = parseCommandLine(command, HELP, args, { name: { type: 'string' } });
  const name = requiredOption(command, 'name', values.name);
  printJson(io, await withDatabase(io, (database) => createDistribution(database.db, name)));
}

async function list(args: string[], io: CliIo): Promise<void> {
  parseCommandLine('distribution list', HELP, args, {});
  printJson(io, await withDatabase(io, (database) => listDistributions(database.db)));
}

export const distributionCommands: CommandGroup = {
  name: 'distribution',
  summary: 'create and list distributions',
  run: (args, io) => runSubcommand('distribution', HELP, args, io, { create, list }),
};
