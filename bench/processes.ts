// Child processes of a benchmark: the server under test and the load generator, each
// pinned to a core of its own (taskset) when the machine has two or more.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LoadResult, LoadSpec } from './load.ts';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const SERVER_CORE = 0;
const LOAD_CORE = 1;
const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 15_000;

export interface Pinning {
  readonly enabled: boolean;
}

export interface ServerProcess {
  readonly pid: number;
  readonly url: string;
  /** VmHWM: the largest resident set the process has had so far, in MiB. */
  peakRssMiB(): number;
  stop(): Promise<void>;
  /** The last lines the process wrote to stderr/stdout, for error messages. */
  output(): string;
  /** How the process ended, if it has: a server that dies mid-run invalidates the run. */
  exitStatus(): string | null;
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function spawnNode(
  args: string[],
  env: Record<string, string>,
  core: number,
  pinning: Pinning,
  cwd = ROOT,
): ChildProcess {
  const command = pinning.enabled ? 'taskset' : process.execPath;
  const argv = pinning.enabled ? ['-c', String(core), process.execPath, ...args] : args;
  // taskset execs node in place: the child's pid is the server's pid.
  return spawn(command, argv, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
}

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

/** Starts `node <script>` and waits until `readyPath` answers with any HTTP status. */
export async function startServer(
  script: string,
  env: Record<string, string>,
  options: {
    pinning: Pinning;
    readyPath: string;
    nodeArgs?: string[];
    onLoadCore?: boolean /** Another checkout (the baseline). */;
    root?: string;
  },
): Promise<ServerProcess> {
  const port = await freePort();
  const core = options.onLoadCore ? LOAD_CORE : SERVER_CORE;
  const child = spawnNode(
    [...(options.nodeArgs ?? []), script],
    { ...env, PORT: String(port), HOST: '127.0.0.1' },
    core,
    options.pinning,
    options.root,
  );
  let tail = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString()).slice(-4000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  let exitStatus: string | null = null;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      exitStatus = signal ? `killed by ${signal}` : `exited with ${code}`;
      resolve();
    }),
  );
  const url = `http://127.0.0.1:${port}`;

  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${script} exited with ${child.exitCode} before serving:\n${tail}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${script} did not answer within ${START_TIMEOUT_MS} ms:\n${tail}`);
    }
    try {
      await fetch(url + options.readyPath);
      break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  const pid = child.pid!;
  return {
    pid,
    url,
    peakRssMiB: () => {
      const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
      const kib = Number(/^VmHWM:\s+(\d+) kB/m.exec(status)?.[1]);
      return kib / 1024;
    },
    output: () => tail,
    exitStatus: () => exitStatus,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Runs bench/load.ts in its own process and returns what it measured. */
export async function runLoad(spec: LoadSpec, pinning: Pinning): Promise<LoadResult> {
  const child = spawnNode([path.join(ROOT, 'bench/load.ts'), JSON.stringify(spec)], {}, LOAD_CORE, pinning);
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
