// lead-intake sso rotate-keys: a new signing key for the embedded provider.
import { loadConfig } from '../config.ts';
import { rotateSigningKeys, signingKeyRetention } from '../sso/index.ts';
import { type CliIo, type CommandGroup, parseCommandLine, printJson, runSubcommand, withDatabase } from './command.ts';

const HELP = `Usage:
  lead-intake sso rotate-keys
      add a new signing key for ID tokens and access tokens; prints {"kid", "kept", "removed"}.
      Keys it replaced stay published for verification until every token they signed has
      expired (the longest token lifetime of TOKEN_PROFILE), then the next rotation removes
      them. Running servers verify new tokens at once; they sign with the new key after a
      restart, so restart every process after rotating.`;

async function rotateKeys(args: string[], io: CliIo): Promise<void> {
  parseCommandLine('sso rotate-keys', HELP, args, {});
  const retention = signingKeyRetention(loadConfig(io.env).tokenProfile);
  printJson(io, await withDatabase(io, (database) => rotateSigningKeys(database.db, retention)));
}

export const ssoCommands: CommandGroup = {
  name: 'sso',
  summary: 'manage the embedded OpenID provider (rotate-keys)',
  run: (args, io) => runSubcommand('sso', HELP, args, io, { 'rotate-keys': rotateKeys }),
};
