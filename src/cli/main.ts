// The `lead-intake` admin command (docs/design.md section 1): one file per command group.
// Data goes to stdout as JSON; errors go to stderr as one line, with exit code 2 for a
// bad command line (a UsageError: what the command line alone shows wrong) and 1 for a
// refusal or failure of a command understood (the rule --help states).
import { databaseStartProblem } from '../db/start-up-errors.ts';
import { ConfigError } from '../config.ts';
import { type CliIo, type CommandGroup, HelpRequest, UsageError, isHelpWord, processIo } from './command.ts';
import { distributionCommands } from './distribution.ts';
import { migrateCommand } from './migrate.ts';
import { serveCommand } from './serve.ts';
import { tokenCommands } from './token.ts';
import { userCommands } from './user.ts';
import { clientCommands } from './client.ts';
import { ssoCommands } from './sso.ts';
import { webhookCommands } from './webhook.ts';
import { dataCommands } from './data.ts';
import { auditCommands, partyCommands } from './party.ts';
import { retentionCommands } from './retention.ts';
import { dbCommands } from './db.ts';
import { routingCommands } from './routing.ts';

const GROUPS: readonly CommandGroup[] = [
  serveCommand,
  migrateCommand,
  distributionCommands,
  tokenCommands,
  userCommands,
  clientCommands,
  ssoCommands,
  webhookCommands,
  dataCommands,
  partyCommands,
  auditCommands,
  retentionCommands,
  dbCommands,
  routingCommands,
];

const HELP = `Usage: lead-intake <command> [options]

Commands:
${GROUPS.map((group) => `  ${group.name.padEnd(14)}${group.summary}`).join('\n')}

Run \`lead-intake <command> --help\` for a command's options. The configuration comes from the
same environment variables as the server (DATABASE_URL, DATA_DIR, ...). Output is JSON on
stdout; an error is one line on stderr.

Exit codes, one rule for every command:
  0  done
  2  a bad command line, and nothing was done: an unknown command or option, a required
     option missing, a value not of the form or not among the choices its --help lists
     (a scope, a duration, a limit), or a confirmation only the command line can give
     (--yes where there is no terminal to ask)
  1  understood, but refused or failed: an id that names nothing, a party erased already,
     a confirmation not given, nothing configured to run, the database unreachable`;

/** Runs one command; returns its exit code. `io` is the process's own unless a test passes one. */
export async function main(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  const [name, ...args] = argv;
  try {
    if (name === undefined) throw new UsageError('', 'missing command');
    if (isHelpWord(name)) throw new HelpRequest(HELP);
    const group = GROUPS.find((candidate) => candidate.name === name);
    if (!group) throw new UsageError('', `unknown command ${JSON.stringify(name)}`);
    await group.run(args, io);
    return 0;
  } catch (error) {
    return report(io, error, name);
  }
}

function report(io: CliIo, error: unknown, group: string | undefined): number {
  if (error instanceof HelpRequest) {
    io.stdout.write(`${error.text}\n`);
    return 0;
  }
  if (error instanceof UsageError) {
    const command = error.command ? `lead-intake ${error.command}` : 'lead-intake';
    io.stderr.write(`${command}: ${error.message} (see ${command} --help)\n`);
    return 2;
  }
  const message =
    error instanceof ConfigError
      ? `invalid configuration: ${error.problems.join('; ')}`
      : (databaseStartProblem(error, io.env.DATABASE_URL?.trim() || undefined) ??
        (error instanceof Error ? error.message : String(error)));
  // One line, whatever the error: a multi-line driver message is folded.
  io.stderr.write(`lead-intake ${group}: ${message.replace(/\s*\n\s*/g, ' ')}\n`);
  return 1;
}

if (import.meta.main) {
  const code = await main(process.argv.slice(2));
  if (code !== 0) process.exit(code);
}
