// An acknowledged push is a committed push: the server answers only after the commit
// (src/db/transaction-runner.ts), so every lead answered 201 must still be there after
// the process is killed without warning (kill -9) and started again on the same data.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { createTenant, createTestDatabase, type Tenant, type TestDatabase } from './support/test-server.ts';

const SERVER_SCRIPT = fileURLToPath(new URL('../src/server.ts', import.meta.url));
const CONCURRENCY = 30;
const MAX_PUSHES = 2_000;
const MAX_PUSHING_MS = 5_000;
/** The kill comes after this many acknowledgements, or after KILL_AFTER_MS, whichever is first. */
const KILL_AFTER_ACKS = 300;
const KILL_AFTER_MS = 2_500;

let database: TestDatabase;
let tenant: Tenant;

beforeAll(async () => {
  database = await createTestDatabase();
  tenant = await createTenant(database.handle, ['leads:write']);
});
afterAll(async () => {
  await database?.drop();
});

interface RunningServer {
  readonly url: string;
  readonly child: ChildProcess;
  readonly exited: Promise<unknown>;
}

async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** `node src/server.ts` as in production, on the test database, answering /healthz. */
async function startServer(): Promise<RunningServer> {
  const port = await freePort();
  const child = spawn(process.execPath, [SERVER_SCRIPT], {
    env: {
      ...process.env, DATABASE_URL: '', ...database.env,
      NODE_ENV: 'production', LOG_LEVEL: 'warn', PORT: String(port), HOST: '127.0.0.1',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => { stderr = (stderr + chunk.toString()).slice(-2000); });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 15_000;
  while (!(await fetch(`${url}/healthz`).then((r) => r.ok, () => false))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { url, child, exited };
}

function push(server: RunningServer, ref: string): Promise<Response> {
  return fetch(`${server.url}/v1/api/distributions/${tenant.distributionId}/leads/customers`, {
    method: 'POST',
    headers: { authorization: `apikey ${tenant.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      prospect: { first_name: 'Durable', last_name: 'Lead', external_refs: [{ external_ref: ref, external_ref_company: 'crm' }] },
    }),
    signal: AbortSignal.timeout(10_000),
  });
}

it('keeps every push answered 201 when the server is killed with SIGKILL mid-stream', async () => {
  const run = randomBytes(4).toString('hex');
  const first = await startServer();
  const acknowledged: Array<{ ref: string; id: string }> = [];
  const unexpected: string[] = [];
  let sent = 0;
  let inFlight = 0;
  let inFlightAtKill = 0;
  let killed = false;
  const kill = () => {
    if (killed) return;
    killed = true;
    inFlightAtKill = inFlight;
    first.child.kill('SIGKILL');
  };
  const timer = setTimeout(kill, KILL_AFTER_MS);
  const deadline = Date.now() + MAX_PUSHING_MS;

  const pushUntilKilled = async () => {
    while (!killed && sent < MAX_PUSHES && Date.now() < deadline) {
      const ref = `durable-${run}-${sent++}`;
      inFlight++;
      try {
        const response = await push(first, ref);
        const body = await response.json() as { id: string };
        if (response.status === 201) acknowledged.push({ ref, id: body.id });
        else unexpected.push(`${response.status} for ${ref}`);
        if (acknowledged.length >= KILL_AFTER_ACKS) kill();
      } catch {
        // The server died with this push in flight: never acknowledged, so no promise made.
      } finally {
        inFlight--;
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, pushUntilKilled));
  clearTimeout(timer);
  kill();
  await first.exited;

  expect(unexpected).toEqual([]);
  expect(acknowledged.length).toBeGreaterThan(20);
  // The kill really came mid-stream, with pushes the server had not answered.
  expect(inFlightAtKill).toBeGreaterThan(0);

  const second = await startServer();
  try {
    const ids = acknowledged.map((a) => a.id);
    const stored = new Set<string>();
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await database.handle.db.selectFrom('leads').select('id').where('id', 'in', ids.slice(i, i + 500)).execute();
      for (const row of rows) stored.add(row.id);
    }
    expect(ids.filter((id) => !stored.has(id))).toEqual([]);

    // The restarted server knows them too: the same ref merges into the same lead. The
    // last acknowledgements before the kill are the ones most at risk.
    const sample = [...acknowledged.slice(0, 10), ...acknowledged.slice(-20)];
    for (const { ref, id } of sample) {
      const response = await push(second, ref);
      expect({ ref, status: response.status, id: (await response.json() as { id: string }).id }).toEqual({ ref, status: 200, id });
    }
  } finally {
    second.child.kill('SIGTERM');
    await second.exited;
  }
});
