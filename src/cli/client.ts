// lead-intake client create|list|delete: the partner applications that use single sign-on.
import { createClient, deleteClient, listClients } from '../sso/index.ts';
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
  lead-intake client create --name <name> --redirect-uri <uri> [--redirect-uri <uri> ...]
      register a partner application; prints {"client_id", "client_secret", "name",
      "redirect_uris", "created_at"}. The client_secret is shown only this once.
      Redirect URIs are https (http only on localhost/127.0.0.1), without a fragment.
  lead-intake client list
      print the clients (never their secrets) as a JSON array
  lead-intake client delete <client_id>
      delete a client: its sign-ins, refresh tokens and access tokens stop working at once`;

async function create(args: string[], io: CliIo): Promise<void> {
  const command = 'client create';
  const { values } = parseCommandLine(command, HELP, args, {
    name: { type: 'string' },
    'redirect-uri': { type: 'string', multiple: true },
  });
  const name = requiredOption(command, 'name', values.name);
  const redirectUris = (values['redirect-uri'] ?? []).map((uri) => uri.trim()).filter((uri) => uri !== '');
  if (redirectUris.length === 0) throw new UsageError(command, '--redirect-uri is required');
  printJson(io, await withDatabase(io, (database) => createClient(database.db, { name, redirectUris })));
}

async function list(args: string[], io: CliIo): Promise<void> {
  parseCommandLine('client list', HELP, args, {});
  printJson(io, await withDatabase(io, (database) => listClients(database.db)));
}

async function remove(args: string[], io: CliIo): Promise<void> {
  const { positionals } = parseCommandLine('client delete', HELP, args, {}, ['<client_id>']);
  printJson(io, await withDatabase(io, (database) => deleteClient(database.db, positionals[0]!)));
}

export const clientCommands: CommandGroup = {
  name: 'client',
  summary: 'create, list and delete SSO clients (partner applications)',
  run: (args, io) => runSubcommand('client', HELP, args, io, { create, list, delete: remove }),
};
