// `npm run bench`: starts the real server (and a bare Fastify echo as the baseline) as
// child processes, drives each from a second process (bench/load.ts) on loopback, and
// writes docs/benchmarks.md. Every scenario gets a fresh database and a fresh server.
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { createBenchDatabase, type BenchDialect } from './database.ts';
import type { LoadSpec } from './load.ts';
import { readOptions } from './options.ts';
import type { Scenario } from './payloads.ts';
import { runLoad, startServer, type ServerProcess } from './processes.ts';
import { describeMachine } from './machine.ts';
import { log, measure, requireAllSucceeded, waitForQuiet, type Measurement } from './measure.ts';
import { renderReport, renderWebhookSection, type SeedRun } from './report.ts';
import { summariseCpuProfile } from './cpu-profile.ts';
import { measureWebhooks, type WebhookMeasurement } from './webhooks.ts';
import { referenceBenchmark } from './reference.ts';
import { countStatements } from './statements.ts';

const options = readOptions();
const pinning = { enabled: options.pin };
const PUSH_PATH = (distributionId: string) => `/v1/api/distributions/${distributionId}/leads/customers`;

function spec(server: ServerProcess, pushPath: string, token: string | null, scenario: Scenario, extra: Partial<LoadSpec> = {}): LoadSpec {
  return {
    url: server.url,
    path: pushPath,
    token,
    scenario,
    prefix: `${scenario}-${randomBytes(4).toString('hex')}`,
    connections: options.connections,
    warmupSeconds: options.warmupSeconds,
    durationSeconds: options.durationSeconds,
    mergeLeads: options.mergeLeads,
    serverPid: server.pid,
    ...extra,
  };
}

async function measureEcho(): Promise<Measurement> {
  const server = await startServer('bench/echo-server.ts', {}, { pinning, readyPath: '/' });
  try {
    const load = await runLoad(spec(server, PUSH_PATH('00000000-0000-4000-8000-000000000000'), null, 'minimal'), pinning);
    requireAllSucceeded('echo', load, server);
    return { label: 'echo', database: null, scenario: 'minimal', load, peakRssMiB: server.peakRssMiB() };
  } finally {
    await server.stop();
  }
}

interface LeadRun {
  readonly label: string;
  readonly dialect: BenchDialect;
  readonly scenario: Scenario;
  readonly env?: Record<string, string>;
  /** Leads pushed (through HTTP, by a server process of their own) before measuring. */
  readonly seedLeads?: number;
  readonly nodeArgs?: string[];
}

let seedRun: SeedRun | undefined;

async function measureLeads(run: LeadRun): Promise<Measurement> {
  const database = await createBenchDatabase(run.dialect, options.postgresUrl);
  const env = {
    // The per-credential rate limit (1200/min by default) would stop the load in a second.
    NODE_ENV: 'production', LOG_LEVEL: 'warn', SQLITE_SYNCHRONOUS: 'NORMAL', DATABASE_URL: '', RATE_LIMIT: 'off',
    ...database.env, ...run.env,
  };
  const start = (nodeArgs: string[] = []) => startServer('src/server.ts', env, { pinning, readyPath: '/healthz', nodeArgs });
  const pushPath = PUSH_PATH(database.distributionId);
  try {
    let storedLeads = 0;
    if (run.seedLeads) {
      const seeder = await start();
      try {
        log(`${run.label}: pushing ${run.seedLeads} leads first`);
        const started = performance.now();
        const seeded = await runLoad(spec(seeder, pushPath, database.token, 'minimal', {
          amount: run.seedLeads, connections: options.seedConnections, prefix: 'seed', warmupSeconds: 0,
        }), pinning);
        requireAllSucceeded(`${run.label} (seeding)`, seeded, seeder);
        seedRun = { leads: run.seedLeads, seconds: (performance.now() - started) / 1000, connections: options.seedConnections };
      } finally {
        await seeder.stop();
      }
      storedLeads = await database.countLeads();
      log(`${run.label}: ${storedLeads} leads stored after ${seedRun!.seconds.toFixed(0)} s`);
      await waitForQuiet(run.label, options);
    }
    const server = await start(run.nodeArgs);
    let measured: Omit<Measurement, 'storedLeadsAfter'>;
    try {
      const load = await runLoad(spec(server, pushPath, database.token, run.scenario), pinning);
      requireAllSucceeded(run.label, load, server);
      measured = { label: run.label, database: run.dialect, scenario: run.scenario, load, peakRssMiB: server.peakRssMiB(), storedLeads };
    } finally {
      await server.stop();
    }
    return { ...measured, storedLeadsAfter: await database.countLeads() };
  } finally {
    await database.drop();
  }
}

/** BENCH_CPU_PROFILE: scenario (a) on SQLite under `node --cpu-prof`; prints where the time went. */
async function profile(dir: string): Promise<void> {
  fs.mkdirSync(dir, { recursive: true });
  const before = new Set(fs.readdirSync(dir));
  await measure('(a) profiled', options, () => measureLeads({
    label: '(a) profiled', dialect: 'sqlite', scenario: 'minimal', nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${dir}`],
  }));
  const written = fs.readdirSync(dir).filter((name) => !before.has(name) && name.endsWith('.cpuprofile'));
  for (const name of written) process.stdout.write(summariseCpuProfile(path.join(dir, name)));
}

const SCENARIOS: ReadonlyArray<{ scenario: Scenario; label: string }> = [
  { scenario: 'minimal', label: '(a) minimal push, new lead' },
  { scenario: 'full', label: '(b) full push, new lead' },
  { scenario: 'merge', label: '(c) merge into existing lead' },
];

async function benchmark(): Promise<void> {
  const measurements: Measurement[] = [];
  const startedAt = new Date();
  const machine = await describeMachine(options);
  log(`${options.warmupSeconds} s + ${options.durationSeconds} s per scenario at ${options.connections} connections, pinned: ${options.pin}`);
  const echo = await measure('echo', options, measureEcho);
  const lead = (run: LeadRun) => measure(`${run.dialect} ${run.label}`, options, () => measureLeads(run));
  for (const dialect of options.databases) {
    for (const { scenario, label } of SCENARIOS) measurements.push(await lead({ label, dialect, scenario }));
  }
  if (options.databases.includes('sqlite')) {
    measurements.push(await lead({
      label: '(a) minimal push, SQLITE_SYNCHRONOUS=FULL', dialect: 'sqlite', scenario: 'minimal', env: { SQLITE_SYNCHRONOUS: 'FULL' },
    }));
    if (options.seedLeads > 0) {
      measurements.push(await lead({
        label: `(a) minimal push, ${options.seedLeads} leads stored`, dialect: 'sqlite', scenario: 'minimal', seedLeads: options.seedLeads,
      }));
    }
  }
  const webhooks = await measureAllWebhooks();
  const statements = await countStatements(options.databases, options.postgresUrl);
  fs.mkdirSync(path.dirname(options.output), { recursive: true });
  fs.writeFileSync(options.output, renderReport({ options, machine, startedAt, echo, measurements, seedRun, webhooks, statements }));
  log(`wrote ${options.output}`);
}

/** Scenario (d) on each database: pushes with a callback, webhooks delivered meanwhile. */
async function measureAllWebhooks(): Promise<WebhookMeasurement[]> {
  const results: WebhookMeasurement[] = [];
  for (const dialect of options.databases) {
    results.push(await measure(`${dialect} (d) webhooks`, options, () => measureWebhooks(dialect, options, pinning)) as WebhookMeasurement);
  }
  return results;
}

/** BENCH_ONLY=webhooks: scenario (d) alone, its section printed for docs/benchmarks.md. */
async function webhooksOnly(): Promise<void> {
  const startedAt = new Date();
  const machine = await describeMachine(options);
  const webhooks = await measureAllWebhooks();
  process.stdout.write(renderWebhookSection(webhooks, { options, machine, startedAt }));
}

await (options.cpuProfileDir !== undefined ? profile(options.cpuProfileDir)
  : options.only === 'webhooks' ? webhooksOnly()
  : options.only === 'reference' ? referenceBenchmark(options, pinning)
  : benchmark());
