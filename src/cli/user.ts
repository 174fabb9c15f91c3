// lead-intake user create|list|disable: the broker accounts that sign in at /sso.
import { createUser, disableUser, listUsers, MIN_PASSWORD_LENGTH } from '../sso/index.ts';
import {
  type CliIo,
  type CommandGroup,
  UsageError,
  parseCommandLine,
  printJson,
  requiredOption,
  runSubcommand,
  withDatabase,
} from './command.ts';

const HELP = `Usage:
  lead-intake user create --distribution <id> --email <e-mail> --username <name> [--name <full name>]
                          [--language nl] [--country BE] [--locale nl-BE] [--role broker] [--broker <uuid>]
      create a user; the password is read from stdin (at least ${MIN_PASSWORD_LENGTH} characters; one
      trailing newline is ignored). Prints the user, never the password or its hash.
      --name is what colleagues and partners read (GET .../users); the username when left out.
      --broker groups users of one broker office (the userinfo "bid"); a new id when left out.
  lead-intake user list [--distribution <id>]
      print the users as a JSON array
  lead-intake user disable <user id | e-mail | username>
      disable a user at once: no more sign-ins, and their tokens stop working

Example:
  printf '%s' "$PASSWORD" | npx lead-intake user create --distribution "$DIST" --email jan@broker.be --username jan`;

/** The whole of stdin, minus one trailing newline (what `echo` or a heredoc adds). */
async function readPassword(io: CliIo): Promise<string> {
  if (io.stdin.isTTY) io.stderr.write('Password (then Enter and Ctrl-D): ');
  const chunks: Buffer[] = [];
  for await (const chunk of io.stdin) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

async function create(args: string[], io: CliIo): Promise<void> {
  const command = 'user create';
  const { values } = parseCommandLine(command, HELP, args, {
    distribution: { type: 'string' },
    email: { type: 'string' },
    username: { type: 'string' },
    name: { type: 'string' },
    language: { type: 'string' },
    country: { type: 'string' },
    locale: { type: 'string' },
    role: { type: 'string' },
    broker: { type: 'string' },
  });
  const input = {
    distributionId: requiredOption(command, 'distribution', values.distribution),
    email: requiredOption(command, 'email', values.email),
    username: requiredOption(command, 'username', values.username),
    name: values.name,
    language: values.language,
    country: values.country,
    locale: values.locale,
    role: values.role,
    brokerId: values.broker,
  };
  const password = await readPassword(io);
  if (password === '') throw new UsageError(command, 'no password on stdin');
  printJson(io, await withDatabase(io, (database) => createUser(database.db, { ...input, password })));
}

async function list(args: string[], io: CliIo): Promise<void> {
  const { values } = parseCommandLine('user list', HELP, args, { distribution: { type: 'string' } });
  const distributionId = values.distribution?.trim();
  printJson(io, await withDatabase(io, (database) => listUsers(database.db, distributionId ? { distributionId } : {})));
}

async function disable(args: string[], io: CliIo): Promise<void> {
  const { positionals } = parseCommandLine('user disable', HELP, args, {}, ['<user id, e-mail or username>']);
  printJson(io, await withDatabase(io, (database) => disableUser(database.db, positionals[0]!)));
}

export const userCommands: CommandGroup = {
  name: 'user',
  summary: 'create, list and disable SSO users (broker accounts)',
  run: (args, io) => runSubcommand('user', HELP, args, io, { create, list, disable }),
};
