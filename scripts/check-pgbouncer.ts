// npm run check:pgbouncer: the service behind PgBouncer in transaction pooling mode, where
// consecutive transactions of one client may run on different server connections, so no
// session state (SET, session advisory locks, LISTEN, prepared statements before PgBouncer
// 1.21) may be relied on. Starts Debian's pgbouncer (installing it with apt-get when run as
// root and it is missing) in front of the local PostgreSQL with a temporary configuration,
// runs the real server through it, drives pushes (concurrent identical ones included),
// merges, PATCH with If-Match, the change listing, single sign-on and a webhook delivery,
// and prints what passed. First with DATABASE_PREPARED_STATEMENTS=false, the setting
// docs/postgresql.md gives for such a pooler (must pass), then with the default (told, not required).
// Not part of npm test: it needs a PostgreSQL superuser and may install a package.
//   npm run check:pgbouncer                 (CHECK_POSTGRES_URL, default postgres://postgres@127.0.0.1:5432/postgres)
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { createApiToken } from '../src/auth/api-token.service.ts';
import { openDatabase } from '../src/db/database.ts';
import { insertDistribution } from '../src/distributions/distribution.repository.ts';
import { createClient, createUser } from '../src/sso/index.ts';
import { currentSecret } from '../src/webhooks/signing/signing-key.service.ts';
import { fullBodies } from '../bench/payloads.ts';
import { callApi } from '../test/support/api-client.ts';
import { freePort, type ServerProcess, startServerProcess } from '../test/support/server-process.ts';
import {
  authorizationUrl,
  exchangeCode,
  PASSWORD,
  pkcePair,
  signInAndConsent,
  tokenRequest,
  UserAgent,
} from '../test/support/sso.ts';

const ADMIN_URL = process.env.CHECK_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PUBLIC_URL = 'https://leads.pgbouncer.test';

interface Check {
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
}

function pgbouncerBinary(): string {
  const found = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'].find((candidate) => fs.existsSync(candidate));
  if (found) return found;
  if (process.getuid?.() !== 0)
    throw new Error('pgbouncer is not installed: apt-get install pgbouncer (as root), then run this again');
  console.log('installing pgbouncer (apt-get install pgbouncer)');
  execFileSync('apt-get', ['install', '-y', '-q', 'pgbouncer'], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  return pgbouncerBinary();
}

async function waitFor(what: string, probe: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** pgbouncer on a free port, in transaction mode, in front of ADMIN_URL's server. */
async function startPgbouncer(binary: string): Promise<{ port: number; version: string; stop: () => Promise<void> }> {
  const admin = new URL(ADMIN_URL);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lead-intake-pgbouncer-'));
  fs.chmodSync(dir, 0o777);
  const port = await freePort();
  fs.writeFileSync(
    path.join(dir, 'userlist.txt'),
    `"${decodeURIComponent(admin.username)}" "${decodeURIComponent(admin.password)}"\n`,
  );
  fs.writeFileSync(
    path.join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `* = host=${admin.hostname} port=${admin.port || 5432}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      `unix_socket_dir = ${dir}`,
      'auth_type = trust',
      `auth_file = ${path.join(dir, 'userlist.txt')}`,
      'pool_mode = transaction',
      'max_client_conn = 500',
      'default_pool_size = 20',
      // node-postgres sends no other startup parameter worth refusing.
      'ignore_startup_parameters = extra_float_digits',
      `logfile = ${path.join(dir, 'pgbouncer.log')}`,
      `pidfile = ${path.join(dir, 'pgbouncer.pid')}`,
    ].join('\n'),
  );
  for (const file of fs.readdirSync(dir)) fs.chmodSync(path.join(dir, file), 0o666);
  // pgbouncer will not run as root; -u drops to the postgres user.
  const asRoot = process.getuid?.() === 0 ? ['-u', 'postgres'] : [];
  const child = spawn(binary, [...asRoot, path.join(dir, 'pgbouncer.ini')], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    output += chunk;
  });
  await waitFor(`pgbouncer on port ${port} (${output})`, async () => {
    const client = new pg.Client({ connectionString: `postgres://${admin.username}@127.0.0.1:${port}/postgres` });
    await client.connect();
    await client.end();
    return true;
  });
  const version = execFileSync(binary, ['--version'], { encoding: 'utf8' }).split('\n')[0]!;
  return {
    port,
    version,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The real server through the pooler, once it reaches the database. */
async function startServer(env: Record<string, string>): Promise<ServerProcess> {
  const server = await startServerProcess({ RATE_LIMIT: 'off', PUBLIC_URL, ...env });
  await waitFor('the server', async () => (await fetch(`${server.url}/readyz`)).ok, 60_000);
  return server;
}

/** The whole tour through one server; each step a check. */
async function tour(databaseUrl: string, preparedStatements: boolean): Promise<Check[]> {
  const checks: Check[] = [];
  const check = async (name: string, step: () => Promise<string>) => {
    try {
      checks.push({ name, ok: true, detail: await step() });
    } catch (error) {
      checks.push({ name, ok: false, detail: (error as Error).message.split('\n')[0]!.slice(0, 300) });
    }
  };
  const expect = (condition: boolean, message: string) => {
    if (!condition) throw new Error(message);
  };

  // The tenant, user and client, written through the pooler too.
  const handle = openDatabase({
    databaseUrl,
    dataDir: '',
    sqliteSynchronous: 'NORMAL',
    databasePreparedStatements: preparedStatements,
    poolSize: 2,
  });
  const receiver = await webhookReceiver();
  const server = await startServer({
    DATABASE_URL: databaseUrl,
    DATABASE_PREPARED_STATEMENTS: String(preparedStatements),
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    WEBHOOK_RETRY_SCHEDULE: '200ms,200ms',
  });
  try {
    const distribution = await insertDistribution(handle.db, 'PgBouncer check');
    const token = (
      await createApiToken(handle.db, {
        distributionId: distribution.id,
        scopes: ['leads:write', 'leads:read', 'parties:read', 'parties:update'],
      })
    ).token;
    const api = (method: string, apiPath: string, body?: unknown, headers: Record<string, string> = {}) =>
      callApi(server, { token }, method, `/distributions/${distribution.id}${apiPath}`, { body, headers });
    const startedAt = new Date().toISOString();

    let leadId = '';
    let partyId = '';
    await check('push a new lead, then the same push again', async () => {
      const ref = randomUUID();
      const body = { prospect: { first_name: 'Pooled', last_name: 'Lead', external_refs: [{ external_ref: ref }] } };
      const first = await api('POST', '/leads/customers', body);
      const again = await api('POST', '/leads/customers', body);
      expect(
        first.status === 201 && again.status === 200 && again.body.id === first.body.id,
        `${first.status}, then ${again.status}`,
      );
      leadId = first.body.id;
      partyId = first.body.party_id;
      return '201, then 200 with the same lead';
    });
    await check('a full push (3 cars, 2 packages, 6 policies of 3 coverages)', async () => {
      const reply = await api('POST', '/leads/customers', JSON.parse(fullBodies(randomBytes(4).toString('hex'))()));
      expect(
        reply.status === 201 && reply.body.insurance_policies.length === 6,
        `${reply.status} ${JSON.stringify(reply.body).slice(0, 200)}`,
      );
      return '201';
    });
    await check('20 identical full pushes at once give one lead', async () => {
      const body = JSON.parse(fullBodies(randomBytes(4).toString('hex'))());
      const replies = await Promise.all(Array.from({ length: 20 }, () => api('POST', '/leads/customers', body)));
      const statuses = replies
        .map((reply) => reply.status)
        .sort()
        .join(',');
      expect(
        statuses === [...Array(19).fill(200), 201].sort().join(',') &&
          new Set(replies.map((reply) => reply.body.id)).size === 1,
        statuses,
      );
      return 'one 201, 19 200';
    });
    await check('a merge changes the stored lead', async () => {
      const merged = await api('POST', '/leads/customers', {
        prospect: { id: partyId, first_name: 'Pooled', last_name: 'Lead', telephonenr: '+32 9 111 22 33' },
      });
      const read = await api('GET', `/leads/${leadId}`);
      expect(
        merged.status === 200 && read.body.prospect.telephonenr === '+32 9 111 22 33',
        `${merged.status} ${read.status}`,
      );
      return '200, read back';
    });
    await check('PATCH with If-Match, and 412 for a stale one', async () => {
      const party = await api('GET', `/parties/${partyId}`);
      const etag = party.headers.get('etag')!;
      const patched = await api('PATCH', `/parties/${partyId}`, { last_name: 'Patched' }, { 'if-match': etag });
      const stale = await api('PATCH', `/parties/${partyId}`, { last_name: 'Stale' }, { 'if-match': etag });
      expect(patched.status === 200 && stale.status === 412, `${patched.status}, then ${stale.status}`);
      return '200, then 412';
    });
    await check('the change listing finds what changed since the start', async () => {
      const page = await api('GET', `/leads?updated_since=${encodeURIComponent(startedAt)}&limit=100`);
      expect(
        page.status === 200 && page.body.items.some((lead: { id: string }) => lead.id === leadId),
        `${page.status}, ${page.body.items?.length} leads`,
      );
      return `${page.body.items.length} leads`;
    });
    await check('single sign-on: sign in, code, token, userinfo, refresh', async () => {
      const user = await createUser(handle.db, {
        distributionId: distribution.id,
        email: `b-${randomUUID()}@example.be`,
        username: `b-${randomUUID()}`,
        password: PASSWORD,
        language: 'nl',
      });
      const client = await createClient(handle.db, {
        name: 'PgBouncer check',
        redirectUris: ['http://127.0.0.1:9/callback'],
      });
      const pkce = pkcePair();
      const redirect = await signInAndConsent(
        new UserAgent({ url: server.url, config: { publicUrl: PUBLIC_URL } }),
        authorizationUrl(server, { clientId: client.client_id, challenge: pkce.challenge }),
        user.username,
      );
      const tokens = await exchangeCode(server, client, redirect.searchParams.get('code')!, pkce.verifier);
      const userinfo = await fetch(`${server.url}/sso/userinfo`, {
        headers: { authorization: `Bearer ${tokens.body.access_token}` },
      });
      const refreshed = await tokenRequest(server, client, {
        grant_type: 'refresh_token',
        refresh_token: tokens.body.refresh_token,
      });
      expect(
        tokens.status === 200 && userinfo.ok && refreshed.status === 200,
        `token ${tokens.status}, userinfo ${userinfo.status}, refresh ${refreshed.status}`,
      );
      return 'all 200';
    });
    await check('a webhook is delivered, signed', async () => {
      const reply = await api('POST', '/leads/customers', {
        prospect: { first_name: 'Hooked', last_name: 'Lead', callbacks: [receiver.url] },
      });
      await waitFor('the webhook', async () => receiver.received.length > 0, 15_000);
      const secret = (await currentSecret(handle.db, distribution.id)).secret;
      const { headers, body } = receiver.received[0]!;
      const event = new Webhook(secret).verify(body, headers) as { data: { id: string } };
      expect(event.data.id === reply.body.id, 'another lead');
      return 'received and verified';
    });
  } finally {
    await server.stop();
    receiver.close();
    await handle.close();
  }
  const failedWith = checks.some((c) => !c.ok) ? /error: ([^\n"]*)/.exec(server.output())?.[1] : undefined;
  return failedWith ? [...checks, { name: 'the server logged', ok: false, detail: failedWith }] : checks;
}

async function webhookReceiver(): Promise<{
  url: string;
  received: Array<{ headers: Record<string, string>; body: string }>;
  close: () => void;
}> {
  const received: Array<{ headers: Record<string, string>; body: string }> = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      received.push({ headers: request.headers as Record<string, string>, body });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hook`, received, close: () => server.close() };
}

async function main(): Promise<number> {
  const binary = pgbouncerBinary();
  const database = `lead_intake_pgbouncer_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${database}`);
  const bouncer = await startPgbouncer(binary);
  let failed = false;
  try {
    console.log(
      `${bouncer.version}, pool_mode = transaction, in front of ${new URL(ADMIN_URL).host}; database ${database}\n`,
    );
    const user = new URL(ADMIN_URL).username;
    for (const prepared of [false, true]) {
      const checks = await tour(`postgres://${user}@127.0.0.1:${bouncer.port}/${database}`, prepared);
      const required = !prepared;
      console.log(
        `DATABASE_PREPARED_STATEMENTS=${prepared}${required ? ' (the setting docs/postgresql.md gives for this pooler)' : ' (the default; not required to pass behind PgBouncer before 1.21)'}:`,
      );
      for (const c of checks) console.log(`  ${c.ok ? 'pass' : 'FAIL'}  ${c.name}: ${c.detail}`);
      console.log('');
      if (required && checks.some((c) => !c.ok)) failed = true;
    }
  } finally {
    await bouncer.stop();
    await admin.query(`drop database ${database} with (force)`);
    await admin.end();
  }
  console.log(failed ? 'FAILED behind PgBouncer in transaction mode' : 'PASSED behind PgBouncer in transaction mode');
  return failed ? 1 : 0;
}

process.exit(await main());
