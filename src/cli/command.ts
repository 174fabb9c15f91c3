// What every `lead-intake` command shares (docs/design.md section 1): JSON on stdout, one-line
// errors on stderr, the server's configuration and database. Commands reach the process
// only through a CliIo (environment, stdin, stdout, stderr), so they can run in-process
// (the tests do) exactly as they run from bin/lead-intake.js.
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import { loadConfig, type Config } from '../config.ts';
import { openDatabase, type DatabaseHandle } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { canonicalId } from '../db/ids.ts';

/** Bad command line: the message is followed by a pointer to --help and exit code 2. */
export class UsageError extends Error {
  readonly command: string;
  constructor(command: string, message: string) {
    super(message);
    this.name = 'UsageError';
    this.command = command;
  }
}

/** A request for help: printed on stdout with exit code 0. */
export class HelpRequest extends Error {
  readonly text: string;
  constructor(text: string) {
    super('help');
    this.text = text;
  }
}

/** What a command may use of its process. */
export interface CliIo {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stdin: NodeJS.ReadableStream & { readonly isTTY?: boolean };
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
}

/** The real process's environment and standard streams. */
export function processIo(): CliIo {
  return { env: process.env, stdin: process.stdin, stdout: process.stdout, stderr: process.stderr };
}

export type CommandHandler = (args: string[], io: CliIo) => Promise<void>;

export interface CommandGroup {
  readonly name: string;
  /** One line for the overview in `lead-intake --help`. */
  readonly summary: string;
  run: CommandHandler;
}

/**
 * node:util parseArgs in strict mode, with its errors (unknown option, missing value,
 * stray argument) turned into UsageErrors, and --help handled for every command.
 */
export function parseCommandLine<T extends ParseArgsOptionsConfig>(
  command: string,
  help: string,
  args: string[],
  options: T,
  positionals: readonly string[] = [],
) {
  const beforeTerminator = args.includes('--') ? args.slice(0, args.indexOf('--')) : args;
  if (beforeTerminator.includes('--help') || beforeTerminator.includes('-h')) throw new HelpRequest(help);
  const parsed = parseStrictly(command, () => parseArgs({ args, options, strict: true, allowPositionals: true }));
  if (parsed.positionals.length > positionals.length) {
    throw new UsageError(command, `unexpected argument ${JSON.stringify(parsed.positionals[positionals.length])}`);
  }
  const missing = positionals[parsed.positionals.length];
  if (missing !== undefined) throw new UsageError(command, `missing ${missing}`);
  // An id is named in any case, as on the API's routes (RFC 9562; docs/design.md section 14).
  const values = parsed.values as Record<string, unknown>;
  for (const [name, value] of Object.entries(values)) if (typeof value === 'string') values[name] = canonicalId(value);
  return parsed;
}

function parseStrictly<T>(command: string, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    // First sentence only: parseArgs goes on to explain `--` for positionals.
    throw new UsageError(command, (error as Error).message.split('. ')[0]!);
  }
}

/** The value of a required string option, trimmed and non-empty. */
export function requiredOption(command: string, name: string, value: string | boolean | undefined): string {
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(command, `--${name} is required`);
  return value.trim();
}

/** Runs against the server's database (same environment variables), migrated first. */
export async function withDatabase<T>(
  io: CliIo,
  work: (database: DatabaseHandle, config: Config) => Promise<T>,
  { migrate = true } = {},
): Promise<T> {
  const config = loadConfig(io.env);
  const database = openDatabase(config);
  try {
    // Pending migrations are applied exactly as `serve` would, so a fresh install can be
    // set up with the CLI before the first start.
    if (migrate) await migrateToLatest(database.db);
    return await work(database, config);
  } finally {
    await database.close();
  }
}

export function printJson(io: CliIo, value: unknown): void {
  io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Whether the word in a command's place asks for its help instead. */
export function isHelpWord(word: string | undefined): boolean {
  return word === '--help' || word === '-h' || word === 'help';
}

/** Dispatches `<group> <subcommand> ...` to the subcommand's handler. */
export async function runSubcommand(
  group: string,
  help: string,
  args: string[],
  io: CliIo,
  subcommands: Record<string, CommandHandler>,
): Promise<void> {
  const [name, ...rest] = args;
  if (isHelpWord(name)) throw new HelpRequest(help);
  if (name === undefined) throw new UsageError(group, 'missing command');
  const handler = Object.hasOwn(subcommands, name) ? subcommands[name] : undefined;
  if (!handler) throw new UsageError(group, `unknown command ${JSON.stringify(`${group} ${name}`)}`);
  await handler(rest, io);
}
