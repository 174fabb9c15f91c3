// The `lead-intake` command and the first start, as a user meets them: real processes
// (bin/lead-intake.js, src/server.ts) on the test's database, on each database engine.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import { type Config, loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { DEMO_DISTRIBUTION_ID, bootstrapDemo } from '../src/demo-data.service.ts';
import {
  createTestDatabase,
  dialect,
  freePort,
  startTestServer,
  type TestDatabase,
  type TestServer,
} from './support/test-server.ts';
import {
  BIN,
  ROOT,
  type CliRun,
  childEnv,
  cliJson,
  printedJson,
  run,
  runCli,
  runCliProcess,
  startCliProcess,
} from './support/cli.ts';
import { eventually } from './support/eventually.ts';
import { pushLead } from './support/lead-client.ts';
import { UserAgent, formAction, inputValue } from './support/sso.ts';

const LEAD = JSON.stringify({ prospect: { first_name: 'A', last_name: 'B' } });

/** The status of a push with the token, as a broker platform would send it. */
async function pushStatus(server: TestServer, distributionId: string, token: string): Promise<number> {
  return (await pushLead(server, { distributionId, token }, 'customers', LEAD)).status;
}

describe('lead-intake CLI', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('creates a distribution and a token that works over HTTP until revoked, while the server runs', async () => {
    const env = server.database.env;
    const distribution = await cliJson(env, ['distribution', 'create', '--name', 'Acme Brokers']);
    expect(Object.keys(distribution).sort()).toEqual(['created_at', 'id', 'name']);
    expect(distribution.name).toBe('Acme Brokers');
    expect((await cliJson<any[]>(env, ['distribution', 'list'])).map((d) => d.id)).toContain(distribution.id);

    const created = await cliJson(env, [
      'token',
      'create',
      '--distribution',
      distribution.id,
      '--scopes',
      'leads:write,leads:read',
      '--name',
      'CRM',
    ]);
    expect(Object.keys(created).sort()).toEqual([
      'created_at',
      'distribution_id',
      'expires_at',
      'id',
      'name',
      'prefix',
      'scopes',
      'token',
    ]);
    // The prefix is the start of the secret, short enough to leave it unguessable.
    expect(created.prefix).toBe(created.token.slice(0, 11));
    expect(created.prefix).toMatch(/^li_[A-Za-z0-9_-]{8}$/);
    expect(created).toMatchObject({
      name: 'CRM',
      scopes: ['leads:write', 'leads:read'],
      distribution_id: distribution.id,
      expires_at: null,
    });
    expect([200, 201]).toContain(await pushStatus(server, distribution.id, created.token));

    const listing = await runCli(env, ['token', 'list', '--distribution', distribution.id]);
    expect(listing.stdout).not.toContain(created.token);
    expect(printedJson<any[]>(listing)).toEqual([
      {
        id: created.id,
        name: 'CRM',
        prefix: created.prefix,
        scopes: ['leads:write', 'leads:read'],
        distribution_id: distribution.id,
        created_at: created.created_at,
        expires_at: null,
        revoked_at: null,
      },
    ]);

    const revoked = await cliJson(env, ['token', 'revoke', created.id]);
    expect(revoked.id).toBe(created.id);
    expect(Date.parse(revoked.revoked_at)).not.toBeNaN();
    expect(await pushStatus(server, distribution.id, created.token)).toBe(401);
    expect((await cliJson<any[]>(env, ['token', 'list'])).find((t) => t.id === created.id)?.revoked_at).toBe(
      revoked.revoked_at,
    );
  });

  it('revokes a token by the prefix token list shows, or by the leaked secret, and refuses a shared prefix', async () => {
    const env = server.database.env;
    const distribution = await cliJson(env, ['distribution', 'create', '--name', 'Leaky']);
    const issue = () => cliJson(env, ['token', 'create', '--distribution', distribution.id, '--scopes', 'leads:write']);
    const [first, second, third, fourth] = [await issue(), await issue(), await issue(), await issue()];
    const listed = await cliJson<any[]>(env, ['token', 'list', '--distribution', distribution.id]);
    expect(listed.map((token) => token.prefix)).toEqual([first.prefix, second.prefix, third.prefix, fourth.prefix]);

    // By the prefix as shown, and without its li_.
    expect((await cliJson(env, ['token', 'revoke', first.prefix])).id).toBe(first.id);
    expect((await cliJson(env, ['token', 'revoke', second.prefix.slice(3)])).id).toBe(second.id);
    // By the whole secret, as found in a leak.
    expect((await cliJson(env, ['token', 'revoke', third.token])).id).toBe(third.id);
    expect(await pushStatus(server, distribution.id, first.token)).toBe(401);
    expect(await pushStatus(server, distribution.id, second.token)).toBe(401);
    expect(await pushStatus(server, distribution.id, third.token)).toBe(401);
    expect([200, 201]).toContain(await pushStatus(server, distribution.id, fourth.token));

    // Two tokens that share a prefix (48 random bits make it rare, not impossible): neither is revoked by it.
    await server.database.handle.db
      .updateTable('api_tokens')
      .set({ prefix: fourth.prefix })
      .where('id', '=', third.id)
      .execute();
    const ambiguous = await runCli(env, ['token', 'revoke', fourth.prefix]);
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.stderr).toBe(
      `lead-intake token: more than one API token starts with "${fourth.prefix}": revoke it by its id\n`,
    );
    expect([200, 201]).toContain(await pushStatus(server, distribution.id, fourth.token));
    const unknown = await runCli(env, ['token', 'revoke', 'li_00000000']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe('lead-intake token: unknown API token "li_00000000"\n');

    // A token issued before prefixes were kept lists null, and is revoked by its id.
    await server.database.handle.db
      .updateTable('api_tokens')
      .set({ prefix: null })
      .where('id', '=', fourth.id)
      .execute();
    const old = (await cliJson<any[]>(env, ['token', 'list', '--distribution', distribution.id])).at(-1);
    expect(old).toMatchObject({ id: fourth.id, prefix: null });
    expect((await cliJson(env, ['token', 'revoke', fourth.id])).id).toBe(fourth.id);
  });

  it('sets an expiry from --expires-in', async () => {
    const env = server.database.env;
    const distribution = await cliJson(env, ['distribution', 'create', '--name', 'Expiring']);
    const before = Date.now();
    const created = await cliJson(env, [
      'token',
      'create',
      '--distribution',
      distribution.id,
      '--scopes',
      'leads:read',
      '--expires-in',
      '90d',
    ]);
    const lifetime = Date.parse(created.expires_at) - before;
    expect(lifetime).toBeGreaterThan(90 * 86_400_000 - 60_000);
    expect(lifetime).toBeLessThan(90 * 86_400_000 + 60_000);
  });

  it.each([
    { case: 'no command', args: [], code: 2 },
    { case: 'an unknown command', args: ['tokens', 'list'], code: 2 },
    { case: 'an unknown subcommand', args: ['token', 'delete', 'x'], code: 2 },
    { case: 'a missing option', args: ['token', 'create', '--scopes', 'leads:write'], code: 2 },
    { case: 'an option without its value', args: ['distribution', 'create', '--name'], code: 2 },
    { case: 'an unknown option', args: ['distribution', 'list', '--all'], code: 2 },
    {
      case: 'a malformed duration',
      args: ['token', 'create', '--distribution', 'x', '--scopes', 'leads:write', '--expires-in', '3 days'],
      code: 2,
    },
    { case: 'a missing token id', args: ['token', 'revoke'], code: 2 },
    // A scope not among those --help lists is a bad command line, as a missing --scopes is.
    {
      case: 'an unknown scope',
      args: ['token', 'create', '--distribution', 'x', '--scopes', 'leads:write,api'],
      code: 2,
    },
    // Nobody at a terminal to ask: the confirmation must be on the command line.
    {
      case: 'an erasure without --yes and no terminal',
      args: ['party', 'erase', '--distribution', 'x', '--party', 'y'],
      code: 2,
    },
    // Understood, and refused: there is nothing to run.
    { case: 'a retention pass with no period set', args: ['retention', 'run'], code: 1 },
    {
      case: 'an unknown distribution',
      args: ['token', 'create', '--distribution', 'e2a61c4e-0000-4000-8000-000000000000', '--scopes', 'leads:write'],
      code: 1,
    },
    { case: 'an unknown distribution to list', args: ['token', 'list', '--distribution', 'nope'], code: 1 },
    { case: 'an unknown token id', args: ['token', 'revoke', 'e2a61c4e-0000-4000-8000-000000000000'], code: 1 },
  ])('refuses $case: one line on stderr, nothing on stdout, exit $code', async ({ args, code }) => {
    const result = await runCli(server.database.env, args);
    expect(result.code).toBe(code);
    expect(result.stdout).toBe('');
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^lead-intake/);
  });

  it('states the exit-code rule in --help, and says why a retention pass with no period set did nothing', async () => {
    const help = await runCli(server.database.env, ['--help']);
    expect(help.stdout).toContain('Exit codes, one rule for every command:');
    expect(help.stdout).toMatch(/^ {2}2 {2}a bad command line, and nothing was done/m);
    expect(help.stdout).toMatch(/^ {2}1 {2}understood, but refused or failed/m);
    const retention = await runCli(server.database.env, ['retention', 'run']);
    expect(retention).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'lead-intake retention: no retention period is set (RETENTION_PUSH_LOG, RETENTION_WEBHOOK_EVENTS and RETENTION_LEADS are all off), so nothing was removed; see docs/personal-data.md, "Retention"\n',
    });
    const unknownScope = await runCli(server.database.env, [
      'token',
      'create',
      '--distribution',
      'x',
      '--scopes',
      'api',
    ]);
    expect(unknownScope.stderr).toMatch(
      /^lead-intake token create: unknown scope "api"; API tokens may carry: .* \(see lead-intake token create --help\)\n$/,
    );
  });

  it('prints help on stdout', async () => {
    for (const args of [['--help'], ['token', '--help'], ['token', 'create', '--help']]) {
      const result = await runCli(server.database.env, args);
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/lead-intake/);
    }
  });

  it('exits with the code of the command: 2 with one line on stderr for a bad command line', async () => {
    const result = await runCliProcess(server.database.env, ['token', 'create', '--scopes', 'leads:write']);
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: 'lead-intake token create: --distribution is required (see lead-intake token create --help)\n',
    });
  });

  it('runs as `npx lead-intake` and `npm exec` from the checkout', async () => {
    const viaNpx = await run('npx', ['lead-intake', 'distribution', 'list'], server.database.env);
    expect(Array.isArray(printedJson(viaNpx, 'npx lead-intake'))).toBe(true);
    const viaNpmExec = await run('npm', ['exec', '--', 'lead-intake', '--help'], server.database.env);
    expect(viaNpmExec.code, viaNpmExec.stderr).toBe(0);
    expect(viaNpmExec.stdout).toMatch(/^Usage: lead-intake/);
  }, 120_000);

  it.runIf(dialect === 'sqlite')(
    'waits for a write lock held by another process instead of failing (WAL, busy_timeout)',
    async () => {
      const lock = new DatabaseSync(path.join(server.database.env.DATA_DIR!, 'lead-intake.db'));
      try {
        expect(lock.prepare('pragma journal_mode').get()).toEqual({ journal_mode: 'wal' });
        lock.exec('begin immediate');
        // Another process: this one holds the lock, and SQLite's busy wait would block it.
        const waiting = startCliProcess(server.database.env, ['distribution', 'create', '--name', 'Waited']);
        let finished: CliRun | undefined;
        void waiting.done.then((result) => (finished = result));
        // It has reached its write and waits: SQLite's busy handler sleeps between its tries,
        // which the kernel shows as the process's wait channel. A process that gave up
        // instead has finished.
        await eventually(
          async () => {
            if (finished) throw new Error(`the CLI did not wait for the lock: ${JSON.stringify(finished)}`);
            return fs.readFileSync(`/proc/${waiting.pid}/wchan`, 'utf8').includes('nanosleep');
          },
          20_000,
          'the CLI to wait for the lock',
        );
        // Readers are not blocked by the writer meanwhile: the server still answers.
        expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
        lock.exec('commit');
        expect(printedJson(await waiting.done).name).toBe('Waited');
      } finally {
        if (lock.isTransaction) lock.exec('rollback');
        lock.close();
      }
    },
  );
});

// ---------------------------------------------------------------------------------------
// First start: the demo distribution and the curl (src/demo-data.service.ts).

interface ServeProcess {
  stdout(): string;
  /** Resolves with stdout once it matches; rejects if the process ends first. */
  waitFor(pattern: RegExp): Promise<RegExpMatchArray>;
  stop(): Promise<void>;
}

const children = new Set<ChildProcess>();
afterEach(() => {
  for (const child of children) child.kill('SIGKILL');
  children.clear();
});

/** `node src/server.ts` (what npm start runs), or the CLI's `serve`. */
async function startServeProcess(
  database: TestDatabase,
  env: Record<string, string> = {},
  viaCli = false,
): Promise<ServeProcess> {
  const port = await freePort();
  const args = viaCli ? [BIN, 'serve'] : ['src/server.ts'];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: childEnv({ ...database.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'debug', ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    stdout: () => stdout,
    async waitFor(pattern) {
      const deadline = Date.now() + 20_000;
      for (;;) {
        const match = stdout.match(pattern);
        if (match) return match;
        if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
          throw new Error(`no ${pattern} from the server (exit ${child.exitCode})\n${stdout}\n${stderr}`);
        }
        await sleep(25);
      }
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
      children.delete(child);
    },
  };
}

const CURL = /^curl .*$/m;
const BOOTSTRAP_DONE = /^curl .*$|demo bootstrap skipped/m;

/** Runs the printed line as pasted into a shell; without curl, sends what it says with fetch. */
async function runCurlLine(line: string): Promise<number> {
  if (spawnSync('curl', ['--version']).status === 0) {
    const result = await run('sh', ['-c', `${line} -sS`], {});
    const status = /^HTTP\/[\d.]+ (\d{3})/.exec(result.stdout)?.[1];
    // Say what curl said when it got no answer: once, in a full run, it did not, and why is the clue.
    if (status === undefined)
      throw new Error(`curl got no HTTP answer (exit ${result.code}): ${result.stderr}${result.stdout}`);
    return Number(status);
  }
  const url = /\s(https?:\/\/\S+)\s/.exec(line)![1]!;
  const authorization = /'Authorization: (apikey \S+)'/.exec(line)![1]!;
  const body = / -d '(.*)'$/.exec(line)![1]!;
  const response = await fetch(url, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/json' },
    body,
  });
  return response.status;
}

/** With the printed token: read the pushed lead and its party, then PATCH the party. */
async function expectDemoTokenReadsAndUpdates(curlLine: string): Promise<void> {
  const base = /\s(https?:\/\/\S+)\/leads\/customers\s/.exec(curlLine)![1]!;
  const authorization = /'Authorization: (apikey \S+)'/.exec(curlLine)![1]!;
  const listing = await fetch(`${base}/leads?updated_since=2000-01-01T00:00:00Z`, { headers: { authorization } });
  expect(listing.status).toBe(200);
  const [lead] = ((await listing.json()) as { items: Array<{ party_id: string }> }).items;
  const party = await fetch(`${base}/parties/${lead!.party_id}`, { headers: { authorization } });
  expect(party.status).toBe(200);
  const patched = await fetch(`${base}/parties/${lead!.party_id}`, {
    method: 'PATCH',
    headers: { authorization, 'content-type': 'application/merge-patch+json' },
    body: JSON.stringify({ telephonenr: '+32 9 123 45 67' }),
  });
  expect(patched.status).toBe(200);
  expect(((await patched.json()) as { telephonenr: string }).telephonenr).toBe('+32 9 123 45 67');
}

describe('first start', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.drop();
  });
  const count = async (table: 'distributions' | 'api_tokens') =>
    (await database.handle.db.selectFrom(table).select('id').execute()).length;

  it('creates a demo and prints a curl that pushes a lead, once', async () => {
    const first = await startServeProcess(database);
    const [line] = await first.waitFor(CURL);
    expect(line).toContain(`/v1/api/distributions/${DEMO_DISTRIBUTION_ID}/leads/customers`);
    expect(line).toMatch(/^curl .* http:\/\/localhost:\d+\/v1\/api\//);
    expect([200, 201]).toContain(await runCurlLine(line));
    // The demo token does what docs/api.md, "Reading and updating", shows with it.
    await expectDemoTokenReadsAndUpdates(line);
    // Plain text for a person, not inside a JSON log line; printed once.
    expect(first.stdout().match(/curl /g)).toHaveLength(1);
    // The printed sign-in opens the broker app, where the pushed lead is.
    const [, appUrl, username, password] =
      /open (\S+)\/app and sign in as (\S+)\nwith the password (\S+) \(shown only now/.exec(first.stdout())!;
    const port = new URL(appUrl!).port;
    const agent = new UserAgent({ url: `http://127.0.0.1:${port}`, config: { publicUrl: appUrl } as Config });
    const loginPage = await agent.follow(`${appUrl}/app`);
    const inbox = await agent.follow(formAction(loginPage, '/login'), {
      form: { csrf: inputValue(loginPage.body, 'csrf')!, login: username!, password: password! },
    });
    expect(inbox.status).toBe(200);
    expect(inbox.body).toContain('Jan Peeters');
    await first.stop();

    const second = await startServeProcess(database);
    await second.waitFor(BOOTSTRAP_DONE);
    expect(second.stdout()).not.toMatch(CURL);
    expect(second.stdout()).not.toContain('password');
    await second.stop();
    expect(await count('distributions')).toBe(1);
  });
});

describe('first start in production', () => {
  it('creates no demo and prints no curl', async () => {
    const database = await createTestDatabase();
    try {
      const server = await startServeProcess(database, { NODE_ENV: 'production' });
      await server.waitFor(/lead-intake is serving/);
      await server.stop();
      expect(server.stdout()).not.toMatch(/curl /);
      expect(await database.handle.db.selectFrom('distributions').select('id').execute()).toEqual([]);
    } finally {
      await database.drop();
    }
  });
});

describe('two processes starting at once on one database', () => {
  it('create one demo between them', async () => {
    const database = await createTestDatabase();
    try {
      const servers = await Promise.all([startServeProcess(database), startServeProcess(database, {}, true)]);
      await Promise.all(servers.map((server) => server.waitFor(BOOTSTRAP_DONE)));
      const curls = servers.filter((server) => CURL.test(server.stdout()));
      expect(curls).toHaveLength(1);
      await Promise.all(servers.map((server) => server.stop()));
      expect(await database.handle.db.selectFrom('distributions').select('id').execute()).toHaveLength(1);
      expect(await database.handle.db.selectFrom('api_tokens').select('id').execute()).toHaveLength(1);
    } finally {
      await database.drop();
    }
  });

  // Process start-up rarely lines two bootstraps up exactly; four connections of one
  // process do, so this is the case where both see an empty table before either inserts.
  // (On SQLite, BEGIN IMMEDIATE serialises them by construction.)
  it.runIf(dialect === 'postgres')('create one demo even when their checks interleave', async () => {
    const database = await createTestDatabase();
    const handles = Array.from({ length: 4 }, () =>
      openDatabase({ databaseUrl: database.env.DATABASE_URL, dataDir: '', sqliteSynchronous: 'NORMAL' }),
    );
    try {
      const config = loadConfig({ ...database.env, PORT: '8080' });
      const printed: string[] = [];
      const errors: unknown[] = [];
      const log = { info() {}, debug() {}, error: (object: object) => void errors.push(object) };
      const out = new Writable({ write: (chunk, _encoding, done) => done(void printed.push(String(chunk))) });
      await Promise.all(handles.map((handle) => bootstrapDemo(handle, config, log, out)));
      expect(errors).toEqual([]);
      expect(printed.filter((text) => CURL.test(text))).toHaveLength(1);
      expect(await database.handle.db.selectFrom('distributions').select('id').execute()).toHaveLength(1);
    } finally {
      await Promise.all(handles.map((handle) => handle.close()));
      await database.drop();
    }
  });
});
