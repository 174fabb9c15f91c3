// Runs the real `lead-intake` command (bin/lead-intake.js) under the test's Node, with only
// the environment it is given (plus PATH and HOME).
import { execFile } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const BIN = path.join(ROOT, 'bin', 'lead-intake.js');

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export function runCli(env: Record<string, string>, ...args: string[]): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { cwd: ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env }, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }));
  });
}

/** The JSON a command printed; throws with its stderr when it failed. */
export async function cliJson<T = any>(env: Record<string, string>, ...args: string[]): Promise<T> {
  const run = await runCli(env, ...args);
  if (run.code !== 0) throw new Error(`lead-intake ${args.join(' ')} exited ${run.code}: ${run.stderr}`);
  return JSON.parse(run.stdout) as T;
}
