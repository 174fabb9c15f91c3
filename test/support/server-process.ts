// `node src/server.ts` as in production, in a process of its own on the test's database:
// for what only separate processes can show (kill -9, several workers on one database).
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from './test-server.ts';
import { eventually } from './eventually.ts';

const SERVER_SCRIPT = fileURLToPath(new URL('../../src/server.ts', import.meta.url));

export interface ServerProcess {
  readonly url: string;
  readonly child: ChildProcess;
  readonly exited: Promise<unknown>;
  /** SIGTERM (graceful) and wait for the exit. */
  stop(): Promise<void>;
  /** SIGKILL: no shutdown code runs at all. */
  kill(): Promise<void>;
}

export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [SERVER_SCRIPT], {
    env: {
      ...process.env,
      DATABASE_URL: '',
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      PORT: String(port),
      HOST: '127.0.0.1',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-2000);
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const url = `http://127.0.0.1:${port}`;
  try {
    await eventually(
      async () => {
        if (child.exitCode !== null) throw new Error('the server exited');
        return fetch(`${url}/healthz`).then(
          (r) => r.ok,
          () => false,
        );
      },
      60_000,
      'the server to start',
    );
  } catch {
    child.kill('SIGKILL');
    throw new Error(`server did not start: ${stderr}`);
  }
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return { url, child, exited, stop: () => end('SIGTERM'), kill: () => end('SIGKILL') };
}
