// Runs commands from the checkout, above all the real `lead-intake` command (in-process
// through its `main`, or bin/lead-intake.js as a process), with only the environment they
// are given (plus PATH and HOME).
import { execFile } from 'node:child_process';
import path from 'node:path';
import { Readable } from 'node:stream';
import { main } from '../../src/cli/main.ts';

export const ROOT = path.resolve(import.meta.dirname, '..', '..');
export const BIN = path.join(ROOT, 'bin', 'lead-intake.js');

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Only what a process needs: nothing of the runner's environment (NODE_ENV=test, ...). */
export function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME, ...extra };
}

export interface StartedProcess {
  readonly pid: number;
  /** What it printed and exited with, once it has exited. */
  readonly done: Promise<CliRun>;
}

/** Any command, from the checkout, with `input` on stdin and then end of input. */
export function run(file: string, args: readonly string[], env: Record<string, string>, input = ''): Promise<CliRun> {
  return start(file, args, env, input).done;
}

function start(file: string, args: readonly string[], env: Record<string, string>, input = ''): StartedProcess {
  let child: ReturnType<typeof execFile> | undefined;
  const done = new Promise<CliRun>((resolve) => {
    child = execFile(file, args, { cwd: ROOT, env: childEnv(env), timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }),
    );
    child.stdin!.end(input);
  });
  return { pid: child!.pid!, done };
}

/**
 * The CLI's `main`, in this process, with only `env` as its environment and `input` on
 * stdin: what the command prints and returns is what bin/lead-intake.js would print and
 * exit with. Tests about the process itself (npx, exit on failure, a lock held by another
 * process) use runCliProcess.
 */
export async function runCli(env: Record<string, string>, args: readonly string[], input = ''): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    env: childEnv(env),
    stdin: Readable.from(input === '' ? [] : [Buffer.from(input)]),
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
  });
  return { code, stdout, stderr };
}

/** The CLI as a process of its own, under the Node that runs the tests (the project's Node 24). */
export function runCliProcess(env: Record<string, string>, args: readonly string[], input?: string): Promise<CliRun> {
  return startCliProcess(env, args, input).done;
}

/** runCliProcess, for a test that watches the process while it runs. */
export function startCliProcess(env: Record<string, string>, args: readonly string[], input?: string): StartedProcess {
  return start(process.execPath, [BIN, ...args], env, input);
}

/** The JSON a command printed; throws with its stderr when it failed. */
export function printedJson<T = any>(result: CliRun, command = 'lead-intake'): T {
  if (result.code !== 0) throw new Error(`${command} exited ${result.code}: ${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}

/** The JSON a CLI command printed; throws with its stderr when it failed. */
export async function cliJson<T = any>(
  env: Record<string, string>,
  args: readonly string[],
  input?: string,
): Promise<T> {
  return printedJson<T>(await runCli(env, args, input), `lead-intake ${args.join(' ')}`);
}
