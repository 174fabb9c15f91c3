// A server in a process of its own, as production runs it: for what only separate
// processes can show (kill -9, several workers on one database), and for the benchmark
// (bench/processes.ts), which measures servers started the same way.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { eventually } from './eventually.ts';

const SERVER_SCRIPT = fileURLToPath(new URL('../../src/server.ts', import.meta.url));

export interface ServerProcess {
  readonly url: string;
  readonly pid: number;
  readonly child: ChildProcess;
  readonly exited: Promise<unknown>;
  /** SIGTERM (graceful) and wait for the exit. */
  stop(): Promise<void>;
  /** SIGKILL: no shutdown code runs at all. */
  kill(): Promise<void>;
  /** The last lines the process wrote to stdout and stderr, for error messages. */
  output(): string;
  /** How the process ended, if it has: a server that dies mid-run invalidates a measurement. */
  exitStatus(): string | null;
  /** VmHWM: the largest resident set the process has had so far, in MiB. */
  peakRssMiB(): number;
}

export interface ServerProcessOptions {
  /** The script to run: this checkout's src/server.ts unless given. */
  readonly script?: string;
  /** Node's own arguments, before the script (a profiler's). */
  readonly nodeArgs?: readonly string[];
  /** The working directory (another checkout's, for a baseline). */
  readonly cwd?: string;
  /** It serves once this path answers with any HTTP status. */
  readonly readyPath?: string;
  /** Pinned to this CPU core (taskset), so a measurement's processes do not share one. */
  readonly core?: number;
  readonly startTimeoutMs?: number;
  /** A graceful stop that takes longer than this ends with SIGKILL; without it, stop waits. */
  readonly stopTimeoutMs?: number;
}

/** What a server under test runs with, before the caller's environment. */
const SERVER_DEFAULTS: Readonly<Record<string, string>> = {
  DATABASE_URL: '',
  NODE_ENV: 'production',
  LOG_LEVEL: 'warn',
};

/** `node` with `args`, pinned to `core` when one is given (taskset execs node in place: same pid). */
export function spawnNode(
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; core?: number } = {},
): ChildProcess {
  const pinned = options.core !== undefined;
  const command = pinned ? 'taskset' : process.execPath;
  const argv = pinned ? ['-c', String(options.core), process.execPath, ...args] : [...args];
  return spawn(command, argv, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** A port nobody listens on right now (the OS picks it). */
export async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

export async function startServerProcess(
  env: Record<string, string>,
  options: ServerProcessOptions = {},
): Promise<ServerProcess> {
  const script = options.script ?? SERVER_SCRIPT;
  const port = await freePort();
  const child = spawnNode([...(options.nodeArgs ?? []), script], {
    env: { ...process.env, ...SERVER_DEFAULTS, ...env, PORT: String(port), HOST: '127.0.0.1' },
    ...(options.cwd !== undefined && { cwd: options.cwd }),
    ...(options.core !== undefined && { core: options.core }),
  });
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
  try {
    await eventually(
      async () => {
        if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode} before serving`);
        return fetch(url + (options.readyPath ?? '/healthz')).then(
          () => true,
          () => false,
        );
      },
      options.startTimeoutMs ?? 60_000,
      `${script} to serve`,
    );
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`${script} did not start (${(error as Error).message}):\n${tail}`);
  }
  const pid = child.pid!;
  const end = async (signal: NodeJS.Signals, timeoutMs?: number) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    const timer = timeoutMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    await exited;
    clearTimeout(timer);
  };
  return {
    url,
    pid,
    child,
    exited,
    stop: () => end('SIGTERM', options.stopTimeoutMs),
    kill: () => end('SIGKILL'),
    output: () => tail,
    exitStatus: () => exitStatus,
    peakRssMiB: () => {
      const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
      return Number(/^VmHWM:\s+(\d+) kB/m.exec(status)?.[1]) / 1024;
    },
  };
}
