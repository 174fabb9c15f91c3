// Child processes of a benchmark: the server under test and the load generator, each
// pinned to a core of its own (taskset) when the machine has two or more.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ServerProcess, spawnNode, startServerProcess } from '../test/support/server-process.ts';
import type { LoadResult, LoadSpec } from './load.ts';

export type { ServerProcess } from '../test/support/server-process.ts';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const SERVER_CORE = 0;
const LOAD_CORE = 1;
/** A loaded machine (other work beside the benchmark) starts a server in 30 s and more. */
const START_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 15_000;

export interface Pinning {
  readonly enabled: boolean;
}

const coreOf = (core: number, pinning: Pinning) => (pinning.enabled ? core : undefined);

/**
 * What every measured server runs with; the database's own environment goes after it.
 * SQLite unless that environment says otherwise (never a DATABASE_URL the bench was started
 * with), and no per-credential rate limit: 1,200 a minute by default would stop the load in
 * a second.
 */
export const SERVER_ENV: Readonly<Record<string, string>> = {
  NODE_ENV: 'production',
  LOG_LEVEL: 'warn',
  SQLITE_SYNCHRONOUS: 'NORMAL',
  DATABASE_URL: '',
  RATE_LIMIT: 'off',
};

/** Starts `node <script>` (relative to the checkout) and waits until `readyPath` answers with any HTTP status. */
export async function startServer(
  script: string,
  env: Record<string, string>,
  options: {
    pinning: Pinning;
    readyPath: string;
    nodeArgs?: string[];
    onLoadCore?: boolean;
    /** Another checkout (the baseline). */
    root?: string;
  },
): Promise<ServerProcess> {
  const root = options.root ?? ROOT;
  const core = coreOf(options.onLoadCore ? LOAD_CORE : SERVER_CORE, options.pinning);
  return startServerProcess(env, {
    script: path.join(root, script),
    cwd: root,
    readyPath: options.readyPath,
    startTimeoutMs: START_TIMEOUT_MS,
    stopTimeoutMs: STOP_TIMEOUT_MS,
    ...(options.nodeArgs && { nodeArgs: options.nodeArgs }),
    ...(core !== undefined && { core }),
  });
}

/** Runs bench/load.ts in its own process and returns what it measured. */
export async function runLoad(spec: LoadSpec, pinning: Pinning): Promise<LoadResult> {
  const core = coreOf(LOAD_CORE, pinning);
  const child = spawnNode([path.join(ROOT, 'bench/load.ts'), JSON.stringify(spec)], {
    cwd: ROOT,
    ...(core !== undefined && { core }),
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const code = await new Promise<number | null>((resolve) => child.once('close', (c) => resolve(c)));
  if (code !== 0) throw new Error(`load generator exited with ${code}:\n${stderr}`);
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as LoadResult;
}
