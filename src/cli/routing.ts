// lead-intake routing set|show (docs/design.md section 15; docs/operations.md, "Routing new
// leads"): a distribution's rules for assigning new leads, replaced from a file or printed.
import fs from 'node:fs/promises';
import { setRoutingRules, showRoutingRules } from '../party/index.ts';
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
  lead-intake routing set --distribution <id> --file <rules.json>
      replace the distribution's routing rules with the file's; prints them. Tried in order on
      a lead's creation (never on a merge or an update), the first that matches assigns:
        {"rules": [
          {"when": {"origin": ["web"], "kind": "CUSTOMER", "postcodes": ["1000-1299", "9000"],
                    "language": ["nl"]},
           "assign": {"round_robin": ["<user id>", "<user id>"]}},
          {"when": {}, "assign": {"user": "<user id>"}}]}
      Every "when" key is optional; all given must match. "postcodes" are single codes or
      inclusive ranges, of the lead's first residence. Users must be active users of the
      distribution. A malformed file is refused with the path of each problem, and nothing
      changes. {"rules": []} stops routing. Running servers follow within 10 seconds.
  lead-intake routing show --distribution <id>
      print the distribution's rules, as a rules file holds them`;

async function set(args: string[], io: CliIo): Promise<void> {
  const command = 'routing set';
  const { values } = parseCommandLine(command, HELP, args, {
    distribution: { type: 'string' },
    file: { type: 'string' },
  });
  const distributionId = requiredOption(command, 'distribution', values.distribution);
  const text = await fs.readFile(requiredOption(command, 'file', values.file), 'utf8');
  printJson(io, await withDatabase(io, (database) => setRoutingRules(database.db, distributionId, text)));
}

async function show(args: string[], io: CliIo): Promise<void> {
  const command = 'routing show';
  const { values } = parseCommandLine(command, HELP, args, { distribution: { type: 'string' } });
  const distributionId = requiredOption(command, 'distribution', values.distribution);
  printJson(io, await withDatabase(io, (database) => showRoutingRules(database.db, distributionId)));
}

export const routingCommands: CommandGroup = {
  name: 'routing',
  summary: "set and show a distribution's rules for assigning new leads",
  run: (args, io) => runSubcommand('routing', HELP, args, io, { set, show }),
};
