// `npm start` and `npx lead-intake serve` stop when npm is sent SIGTERM (docs/operations.md,
// "Health, metrics and logs"): npm passes the signal only to the shell it runs the script in, so the
// server must notice on its own. Real processes, as an operator or a process manager
// runs them: npm from PATH, the server on a free port of the test's database.
import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, childEnv } from './support/cli.ts';
import { createTestDatabase, freePort, type TestDatabase } from './support/test-server.ts';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => database?.drop());

/** Every process group a test started, killed whatever happened. */
const groups = new Set<number>();
afterEach(() => {
  for (const group of groups) {
    try {
      process.kill(-group, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  groups.clear();
});

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Polls until `check` holds, or fails naming what was waited for. */
async function until(what: string, check: () => boolean | Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/** Starts `npm <args>` in a process group of its own; resolves once the server logs that it serves. */
async function startThroughNpm(args: string[]): Promise<{ npm: ChildProcess; serverPid: number; port: number }> {
  const port = await freePort();
  const npm = spawn('npm', args, {
    cwd: ROOT,
    env: childEnv({
      ...database.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  groups.add(npm.pid!);
  let output = '';
  npm.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  npm.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  await until(`"lead-intake is serving" from npm ${args.join(' ')}:\n${output}`, () =>
    output.includes('lead-intake is serving'),
  );
  const serverPid = Number(/"pid":(\d+),[^\n]*lead-intake is serving/.exec(output)![1]);
  expect(serverPid).not.toBe(npm.pid);
  return { npm, serverPid, port };
}

describe.each([
  ['npm start', ['start']],
  ['npx lead-intake serve', ['exec', '--', 'lead-intake', 'serve']],
])('%s', (_name, args) => {
  it('stops, port closed and every process gone, when npm is sent SIGTERM', async () => {
    const { npm, serverPid, port } = await startThroughNpm(args);
    expect(await accepts(port)).toBe(true);
    const npmExited = new Promise((resolve) => npm.once('exit', resolve));
    npm.kill('SIGTERM');
    await npmExited;
    await until('the port to close', async () => !(await accepts(port)));
    await until(`the server process ${serverPid} to exit`, () => !alive(serverPid));
  });
});
