// `lead-intake serve --workers N` (docs/design.md section 9): N worker processes share one
// port on PostgreSQL, a dead worker is replaced, SIGTERM stops them all after their
// requests; on SQLite more than one is refused. Real processes, real HTTP, real signals.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, childEnv, runCli } from './support/cli.ts';
import { eventually } from './support/eventually.ts';
import { pushLead } from './support/lead-client.ts';
import {
  createTenant,
  createTestDatabase,
  dialect,
  freePort,
  type Tenant,
  type TestDatabase,
} from './support/test-server.ts';

describe('on SQLite', () => {
  it('refuses more than one worker, and WORKERS=auto on a machine of several cores, with a message', async () => {
    const refused = await runCli({ DATA_DIR: '/nonexistent/never-created' }, ['serve', '--workers', '2']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/WORKERS="2": 2 worker processes need PostgreSQL \(DATABASE_URL\)/);
    const bad = await runCli({}, ['serve', '--workers', 'many']);
    expect(bad.stderr).toMatch(/WORKERS="many": must be a number of processes \(1-256\) or auto/);
  });
});

interface LogLine {
  readonly pid: number;
  readonly msg: string;
  readonly req?: { method: string; url: string };
  readonly res?: { statusCode: number };
}

describe.runIf(dialect === 'postgres')('on PostgreSQL', () => {
  let database: TestDatabase;
  let tenant: Tenant;
  let primary: ChildProcess;
  let url: string;
  const lines: LogLine[] = [];
  let exited: Promise<number | null>;

  beforeAll(async () => {
    database = await createTestDatabase();
    tenant = await createTenant(database.handle, ['leads:write']);
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    primary = spawn(process.execPath, [BIN, 'serve', '--workers', '2'], {
      env: childEnv({
        ...database.env,
        NODE_ENV: 'production',
        LOG_LEVEL: 'info',
        PORT: String(port),
        HOST: '127.0.0.1',
        RATE_LIMIT: 'off',
      }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    exited = new Promise((resolve) => primary.once('exit', (code) => resolve(code)));
    let pending = '';
    primary.stdout!.on('data', (chunk: Buffer) => {
      pending += chunk.toString();
      const complete = pending.split('\n');
      pending = complete.pop()!;
      for (const line of complete) if (line.startsWith('{')) lines.push(JSON.parse(line) as LogLine);
    });
    await eventually(
      async () => lines.filter((line) => line.msg === 'lead-intake is serving').length >= 2,
      60_000,
      'two workers serving',
    );
  }, 90_000);
  afterAll(async () => {
    if (primary.exitCode === null) primary.kill('SIGKILL');
    await database.drop();
  });

  const serving = () => lines.filter((line) => line.msg === 'lead-intake is serving').map((line) => line.pid);

  it('serves one port from two worker processes, each answering pushes', async () => {
    const workers = new Set(serving());
    expect(workers.size).toBe(2);
    expect(workers.has(primary.pid!)).toBe(false);
    // A connection of its own per push: the primary hands connections to the workers in turn.
    const replies = await Promise.all(
      Array.from({ length: 20 }, () =>
        pushLead(
          { url },
          tenant,
          'customers',
          { prospect: { first_name: 'Two', last_name: 'Workers', external_refs: [{ external_ref: randomUUID() }] } },
          { connection: 'close' },
        ),
      ),
    );
    expect(replies.map((reply) => reply.status)).toEqual(Array(20).fill(201));
    await eventually(
      async () => {
        const answered = new Set(
          lines
            .filter((line) => line.msg === 'request completed' && line.res?.statusCode === 201)
            .map((line) => line.pid),
        );
        return answered.size === 2 && [...answered].every((pid) => workers.has(pid));
      },
      10_000,
      'pushes answered by both workers',
    );
  });

  it('starts a new worker when one dies, and keeps serving meanwhile', async () => {
    const [victim, survivor] = serving();
    process.kill(victim!, 'SIGKILL');
    // Once the primary knows (a connection it handed over at the very moment of the death
    // dies with the worker, as with any process a load balancer sends to), the survivor
    // serves alone until the new worker is up.
    await eventually(
      async () => lines.some((line) => line.msg === 'a worker died; starting a new one'),
      10_000,
      'the primary to notice',
    );
    const reply = await pushLead(
      { url },
      tenant,
      'customers',
      { prospect: { first_name: 'Still', last_name: 'Here' } },
      { connection: 'close' },
    );
    expect(reply.status).toBe(201);
    await eventually(async () => serving().length >= 3, 30_000, 'a new worker');
    const replacement = serving().at(-1)!;
    expect([victim, survivor]).not.toContain(replacement);
    expect(() => process.kill(replacement, 0)).not.toThrow();
  }, 90_000);

  it('stops every worker on SIGTERM, after their requests, and exits 0', async () => {
    const workers = serving().slice(-2);
    primary.kill('SIGTERM');
    expect(await exited).toBe(0);
    for (const pid of workers) expect(() => process.kill(pid, 0)).toThrow();
    expect(lines.filter((line) => line.msg === 'shutting down').map((line) => line.pid)).toEqual(
      expect.arrayContaining([primary.pid, ...workers]),
    );
  }, 30_000);
});
