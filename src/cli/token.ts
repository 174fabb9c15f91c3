// lead-intake token create|list|revoke (docs/design.md section 4, API tokens).
import { LONGEST_DURATION_MS, parseDuration } from '../config.ts';
import { createApiToken, listApiTokens, revokeApiToken, UnknownScopeError } from '../auth/api-token.service.ts';
import { API_TOKEN_SCOPES } from '../auth/caller.ts';
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
  lead-intake token create --distribution <id> --scopes <a,b> [--name <name>] [--expires-in <90d>]
      issue a token; prints {"id", "token", "name", "prefix", "scopes", "distribution_id",
      "created_at", "expires_at"}. The secret ("token") is shown only this once.
  lead-intake token list [--distribution <id>]
      print the tokens (never their secrets) as a JSON array, with revoked_at and "prefix", the
      secret's first characters (li_ and 8 more) that tell a leaked token apart
  lead-intake token revoke <token id | prefix | token>
      revoke a token at once, named by its id, its prefix (as token list shows it) or the
      whole secret; prints it

Scopes: ${API_TOKEN_SCOPES.join(', ')}
Durations: a number and a unit of ms, s, m, h or d (30d, 12h).`;

async function create(args: string[], io: CliIo): Promise<void> {
  const command = 'token create';
  const { values } = parseCommandLine(command, HELP, args, {
    distribution: { type: 'string' },
    scopes: { type: 'string' },
    name: { type: 'string' },
    'expires-in': { type: 'string' },
  });
  const distributionId = requiredOption(command, 'distribution', values.distribution);
  const scopes = requiredOption(command, 'scopes', values.scopes)
    .split(/[\s,]+/)
    .filter((scope) => scope !== '');
  if (scopes.length === 0) throw new UsageError(command, '--scopes needs at least one scope');
  // A scope not among those listed in --help is a bad command line, as a missing --scopes is (exit 2).
  const unknown = scopes.filter((scope) => !(API_TOKEN_SCOPES as readonly string[]).includes(scope));
  if (unknown.length > 0) throw new UsageError(command, new UnknownScopeError(unknown).message);
  let expiresAt: Date | null = null;
  if (values['expires-in'] !== undefined) {
    const lifetime = parseDuration(values['expires-in']);
    if (!lifetime || lifetime > LONGEST_DURATION_MS)
      throw new UsageError(
        command,
        `--expires-in ${JSON.stringify(values['expires-in'])} is not a duration such as 90d or 12h (at most 36500d)`,
      );
    expiresAt = new Date(Date.now() + lifetime);
  }
  const name = values.name?.trim() || null;
  printJson(
    io,
    await withDatabase(io, (database) => createApiToken(database.db, { distributionId, scopes, name, expiresAt })),
  );
}

async function list(args: string[], io: CliIo): Promise<void> {
  const { values } = parseCommandLine('token list', HELP, args, { distribution: { type: 'string' } });
  const distributionId = values.distribution?.trim();
  printJson(
    io,
    await withDatabase(io, (database) => listApiTokens(database.db, distributionId ? { distributionId } : {})),
  );
}

async function revoke(args: string[], io: CliIo): Promise<void> {
  const { positionals } = parseCommandLine('token revoke', HELP, args, {}, ['<token id | prefix | token>']);
  printJson(io, await withDatabase(io, (database) => revokeApiToken(database.db, positionals[0]!)));
}

export const tokenCommands: CommandGroup = {
  name: 'token',
  summary: 'create, list and revoke API tokens',
  run: (args, io) => runSubcommand('token', HELP, args, io, { create, list, revoke }),
};
