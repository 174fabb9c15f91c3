// The broker app's inbox at scale (docs/design.md section 13): BENCH_ONLY=inbox. For each
// database and each size of BENCH_INBOX_LEADS (default 1,000 and 100,000 leads in one
// distribution), leads are written straight to the database with the columns the
// migrations create (statuses and assignees spread as a working broker's would be, the
// triggers keeping the counts and, on SQLite, the word index), a broker signs in (a
// session row), and autocannon reads at BENCH_INBOX_CONNECTIONS (10) connections: the
// first page, and a page filtered by status, assignee and a search word. Then the whole
// distribution is exported as CSV once, with the server's peak resident memory before
// and after. Then the first page of each column's order (name, status, assignee, kind,
// origin, either way, beside the default last change) timed one request at a time: 2
// warm-up requests and BENCH_INBOX_SORT_REQUESTS (10) measured, p50 and the longest.
// Prints a markdown section for docs/benchmarks.md.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { sql } from 'kysely';
import { insertSession } from '../src/broker-app/sign-in/session.repository.ts';
import { openDatabase } from '../src/db/database.ts';
import { createUser } from '../src/sso/index.ts';
import { withBenchDatabase, withServer } from './bench-server.ts';
import type { BenchDialect } from './database.ts';
import { describeMachine } from './machine.ts';
import { log } from './measure.ts';
import type { BenchOptions } from './options.ts';
import type { Pinning } from './processes.ts';
import { CURRENT_CODE } from './server-code.ts';
import { runReferenceLoad } from './reference.ts';
import type { ReferenceLoadResult } from './reference-load.ts';

const SIZES = (process.env.BENCH_INBOX_LEADS ?? '1000,100000').split(',').map(Number);
const CONNECTIONS = Number(process.env.BENCH_INBOX_CONNECTIONS ?? 10);
const SORT_REQUESTS = Number(process.env.BENCH_INBOX_SORT_REQUESTS ?? 10);
const SORTS = ['changed', 'name', 'status', 'assignee', 'kind', 'origin'] as const;
const STATUSES = [
  ['new', 70],
  ['contacted', 10],
  ['quoted', 8],
  ['won', 6],
  ['lost', 6],
] as const;
const FIRST_NAMES = ['Els', 'Jan', 'An', 'Pieter', 'Sofie', 'Lukas', 'Marie', 'Tom', 'Lotte', 'Wout'];
const CITIES = [
  ['2000', 'Antwerpen'],
  ['9000', 'Gent'],
  ['1000', 'Brussel'],
  ['3000', 'Leuven'],
  ['8000', 'Brugge'],
] as const;
/** Surnames: 5,000 of them, so one is on about 20 of 100,000 leads; none is a prefix of another. */
const surname = (n: number) => `Peeters${(n % 5000).toString(36).padStart(3, '0')}`;

interface InboxRun {
  readonly dialect: BenchDialect;
  readonly leads: number;
  readonly seedSeconds: number;
  readonly first: ReferenceLoadResult;
  readonly filtered: ReferenceLoadResult;
  /** Statements one request ran (the server's own count), first page and filtered page. */
  readonly statements: readonly [number, number];
  readonly csv: {
    readonly rows: number;
    readonly bytes: number;
    readonly seconds: number;
    readonly rssBeforeMiB: number;
    /** The server's resident memory while the first and the second half of the rows streamed: flat when alike. */
    readonly rssFirstHalfMiB: number;
    readonly rssSecondHalfMiB: number;
  };
  /** The first page of each order, one request at a time. */
  readonly sorts: readonly { readonly path: string; readonly p50Ms: number; readonly maxMs: number }[];
}

export async function inboxBenchmark(options: BenchOptions, pinning: Pinning): Promise<void> {
  const startedAt = new Date();
  const machine = await describeMachine(options);
  const runs: InboxRun[] = [];
  for (const dialect of options.databases)
    for (const leads of SIZES) runs.push(await measure(dialect, leads, options, pinning));
  process.stdout.write(render(runs, options, machine, startedAt));
}

async function measure(
  dialect: BenchDialect,
  leads: number,
  options: BenchOptions,
  pinning: Pinning,
): Promise<InboxRun> {
  return withBenchDatabase({ engine: dialect, postgresUrl: options.postgresUrl }, async (database) => {
    log(`${dialect}: writing ${leads} leads`);
    const started = performance.now();
    const { cookie } = await seed(database.env, database.distributionId, leads);
    const seedSeconds = (performance.now() - started) / 1000;
    return withServer(database, CURRENT_CODE, { pinning, env: { WEBHOOK_WORKER: 'false' } }, async (server) => {
      const load = (paths: string[]) =>
        runReferenceLoad(
          {
            url: server.url,
            token: '',
            headers: { cookie },
            paths,
            connections: CONNECTIONS,
            warmupSeconds: options.warmupSeconds,
            durationSeconds: options.durationSeconds,
            serverPid: server.pid,
          },
          pinning,
        );
      const filteredPath = `/app?status=contacted&assignee=mine&q=${surname(97)}`;
      const statements = [
        await statementsOf(server.url, cookie, '/app'),
        await statementsOf(server.url, cookie, filteredPath),
      ] as const;
      log(`${dialect} ${leads}: first page`);
      const first = await load(['/app']);
      log(`${dialect} ${leads}: filtered page`);
      const filtered = await load(
        Array.from({ length: 50 }, (_, i) => `/app?status=contacted&assignee=mine&q=${surname(i * 97)}`),
      );
      log(`${dialect} ${leads}: CSV export`);
      const rssBeforeMiB = rssMiB(server.pid);
      const exportStarted = performance.now();
      const response = await fetch(`${server.url}/app/export.csv`, { headers: { cookie } });
      let bytes = 0;
      let rows = 0;
      const halves = [0, 0];
      for await (const chunk of response.body!) {
        bytes += chunk.length;
        for (const byte of chunk) if (byte === 10) rows += 1;
        const half = rows < leads / 2 ? 0 : 1;
        halves[half] = Math.max(halves[half]!, rssMiB(server.pid));
      }
      const csv = {
        rows: rows - 1,
        bytes,
        seconds: (performance.now() - exportStarted) / 1000,
        rssBeforeMiB,
        rssFirstHalfMiB: halves[0]!,
        rssSecondHalfMiB: halves[1]!,
      };
      log(`${dialect} ${leads}: each order's first page`);
      const sorts = [];
      for (const sort of SORTS)
        for (const dir of ['asc', 'desc']) {
          const path = `/app?sort=${sort}&dir=${dir}`;
          sorts.push({ path, ...(await timed(server.url, cookie, path)) });
        }
      return { dialect, leads, seedSeconds, first, filtered, statements, csv, sorts };
    });
  });
}

/** One page read 2 + SORT_REQUESTS times one after the other: the p50 and the longest of the last SORT_REQUESTS, in ms. */
async function timed(url: string, cookie: string, path: string): Promise<{ p50Ms: number; maxMs: number }> {
  const times: number[] = [];
  for (let i = 0; i < 2 + SORT_REQUESTS; i++) {
    const started = performance.now();
    const page = await fetch(`${url}${path}`, { headers: { cookie } });
    if (page.status !== 200) throw new Error(`${path} answered ${page.status}`);
    await page.text();
    if (i >= 2) times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50Ms: times[Math.floor(times.length / 2)]!, maxMs: times.at(-1)! };
}

/** VmRSS: the server's resident memory now, in MiB. */
function rssMiB(pid: number): number {
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;
}

/** The statements the server ran for one request (its /metrics count). */
async function statementsOf(url: string, cookie: string, path: string): Promise<number> {
  const count = async () =>
    Number(/^lead_intake_database_statements_total (\d+)/m.exec(await (await fetch(`${url}/metrics`)).text())?.[1]);
  const before = await count();
  const page = await fetch(`${url}${path}`, { headers: { cookie } });
  if (page.status !== 200) throw new Error(`${path} answered ${page.status}`);
  await page.text();
  return (await count()) - before;
}

/** `leads` leads of the distribution, straight into the tables, and a signed-in broker's cookie. */
async function seed(env: Record<string, string>, distributionId: string, leads: number): Promise<{ cookie: string }> {
  const handle = openDatabase({
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: env.DATA_DIR ?? '',
    sqliteSynchronous: 'NORMAL',
  });
  try {
    const db = handle.db;
    const users = [];
    for (const name of ['bench-broker', 'bench-colleague', 'bench-third'])
      users.push(
        await createUser(db, {
          distributionId,
          email: `${name}@example.be`,
          username: name,
          password: 'bench password 123',
        }),
      );
    const statuses = STATUSES.flatMap(([status, share]) => Array<string>(share).fill(status));
    const base = Date.parse('2026-01-01T00:00:00Z');
    for (let from = 0; from < leads; from += 1000) {
      const parties = [];
      const rows = [];
      for (let n = from; n < Math.min(leads, from + 1000); n++) {
        const partyId = randomUUID();
        const at = new Date(base + n * 60_000).toISOString();
        const [zipcode, city] = CITIES[n % CITIES.length]!;
        const first = FIRST_NAMES[n % FIRST_NAMES.length]!;
        const last = surname(n);
        const email = `${first.toLowerCase()}.${last.toLowerCase()}${n}@example.be`;
        const data = {
          first_name: first,
          last_name: last,
          email,
          address: { street: 'Kerkstraat', housenr: '1', zipcode, city, country_code: 'BE' },
        };
        parties.push({
          id: partyId,
          distribution_id: distributionId,
          type: 'CUSTOMER' as const,
          data: JSON.stringify(data),
          match_key: null,
          version: 1,
          created_at: at,
          updated_at: at,
        });
        const status = statuses[n % statuses.length] as 'new';
        rows.push({
          id: randomUUID(),
          distribution_id: distributionId,
          party_id: partyId,
          origin: n % 3 === 0 ? 'website' : 'partner-portal',
          backref: null,
          source: null,
          created_at: at,
          updated_at: at,
          status,
          lost_reason: null,
          assignee_id: n % 5 < 2 ? users[n % 3]!.id : null,
          status_changed_at: at,
          // The words the service stores for such a lead (party/inbox/search-words.ts).
          // As party/inbox/search-words.ts (sortNameOf) folds it: these names are plain ASCII.
          sort_name: `${last} ${first}`.toLowerCase(),
          kind: 'CUSTOMER' as const,
          search_words: [first, last, email.replace(/[@.]/g, ' '), 'kerkstraat', zipcode, city].join(' ').toLowerCase(),
        });
      }
      await db.insertInto('parties').values(parties).execute();
      await db.insertInto('leads').values(rows).execute();
    }
    // Statistics as autovacuum would gather them on a live database.
    if (handle.dialect === 'postgres') await sql`analyze`.execute(db);
    const secret = randomBytes(32).toString('base64url');
    const now = new Date();
    await insertSession(db, {
      id_hash: createHash('sha256').update(secret).digest('hex'),
      user_id: users[0]!.id,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + 12 * 3_600_000).toISOString(),
    });
    return { cookie: `lead_intake_app=${secret}` };
  } finally {
    await handle.close();
  }
}

function render(runs: readonly InboxRun[], options: BenchOptions, machine: unknown, startedAt: Date): string {
  const fmt = (n: number, digits = 1) => n.toFixed(digits);
  const line = (run: InboxRun, label: string, result: ReferenceLoadResult) =>
    `| ${run.dialect} | ${run.leads.toLocaleString('en')} | ${label} | ${fmt(result.requestsPerSecond, 0)} | ${fmt(result.p50Ms)} | ${fmt(result.p99Ms)} | ${result.failures} | ${result.serverCpuMsPerRequest === null ? 'n/a' : fmt(result.serverCpuMsPerRequest, 2)} |`;
  const flat = options.databases.map((dialect) => {
    const [small, large] = [SIZES[0], SIZES.at(-1)].map((size) =>
      runs.find((r) => r.dialect === dialect && r.leads === size),
    );
    if (!small || !large || small === large) return '';
    return `- ${dialect}: p50 at ${large.leads.toLocaleString('en')} / at ${small.leads.toLocaleString('en')} leads: first page ${fmt(large.first.p50Ms / small.first.p50Ms, 2)}x, filtered page ${fmt(large.filtered.p50Ms / small.filtered.p50Ms, 2)}x`;
  });
  return [
    `### The broker app's inbox (BENCH_ONLY=inbox, ${startedAt.toISOString()})`,
    '',
    `${CONNECTIONS} connections, ${options.warmupSeconds} s warm-up, ${options.durationSeconds} s measured per row; one server process. Machine: ${JSON.stringify(machine).slice(0, 300)}`,
    '',
    '| Database | Leads | Page | requests/s | p50 ms | p99 ms | failures | server CPU ms/request | statements |',
    '|---|---:|---|---:|---:|---:|---:|---:|---:|',
    ...runs.flatMap((run) => [
      `${line(run, 'first page', run.first)} ${run.statements[0]} |`,
      `${line(run, 'status + mine + search word', run.filtered)} ${run.statements[1]} |`,
    ]),
    '',
    ...flat.filter(Boolean),
    '',
    '| Database | Leads | CSV rows | MiB | seconds | server RSS before, MiB | highest in the first half of the rows | in the second half | seeding s |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...runs.map(
      (run) =>
        `| ${run.dialect} | ${run.leads.toLocaleString('en')} | ${run.csv.rows.toLocaleString('en')} | ${fmt(run.csv.bytes / 1048576)} | ${fmt(run.csv.seconds)} | ${fmt(run.csv.rssBeforeMiB)} | ${fmt(run.csv.rssFirstHalfMiB)} | ${fmt(run.csv.rssSecondHalfMiB)} | ${fmt(run.seedSeconds, 0)} |`,
    ),
    '',
    `Each order's first page, one request at a time (${SORT_REQUESTS} measured after 2):`,
    '',
    '| Database | Leads | Page | p50 ms | longest ms |',
    '|---|---:|---|---:|---:|',
    ...runs.flatMap((run) =>
      run.sorts.map(
        (sort) =>
          `| ${run.dialect} | ${run.leads.toLocaleString('en')} | \`${sort.path}\` | ${fmt(sort.p50Ms)} | ${fmt(sort.maxMs)} |`,
      ),
    ),
    '',
  ].join('\n');
}
