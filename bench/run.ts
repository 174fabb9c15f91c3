// `npm run bench`: starts the real server (and a bare Fastify echo as the baseline) as
// child processes, drives each from a second process (bench/load.ts) on loopback, and
// writes docs/benchmarks.md. Every scenario gets a fresh database and a fresh server.
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { cloneBenchDatabase, createBenchDatabase, type BenchDatabase, type BenchDialect } from './database.ts';
import { prepareBaseline, type Baseline } from './baseline.ts';
import { measureWriteLimits } from './write-limits.ts';
import type { LoadSpec } from './load.ts';
import { readOptions } from './options.ts';
import type { Scenario } from './payloads.ts';
import { runLoad, SERVER_ENV, startServer, type ServerProcess } from './processes.ts';
import { describeMachine } from './machine.ts';
import { log, measure, requireAllSucceeded, waitForQuiet, type Measurement } from './measure.ts';
import { renderReport, renderWebhookSection, type SeedRun } from './report.ts';
import { cpuPerRequestByArea, summariseCpuProfile } from './cpu-profile.ts';
import { measureWebhooks, type WebhookMeasurement } from './webhooks.ts';
import { referenceBenchmark } from './reference.ts';
import { scalingBenchmark } from './scaling.ts';
import { inboxBenchmark } from './inbox.ts';
import { batchBenchmark } from './batch.ts';
import { erasureBenchmark } from './erasure.ts';
import { clientBenchmark } from './client.ts';
import { countStatements } from './statements.ts';
import { soak, type SoakRun } from './soak.ts';
import { renderSoakSection } from './soak-report.ts';

const options = readOptions();
const pinning = { enabled: options.pin };
const PUSH_PATH = (distributionId: string) => `/v1/api/distributions/${distributionId}/leads/customers`;

function spec(
  server: ServerProcess,
  pushPath: string,
  token: string | null,
  scenario: Scenario,
  extra: Partial<LoadSpec> = {},
): LoadSpec {
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
    const load = await runLoad(
      spec(server, PUSH_PATH('00000000-0000-4000-8000-000000000000'), null, 'minimal'),
      pinning,
    );
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
  /** A database already holding leads (a copy of the seeded template); a fresh one otherwise. */
  readonly database?: () => Promise<BenchDatabase>;
  readonly nodeArgs?: string[];
  /** Run the server of this other checkout (BENCH_BASELINE) instead of this one. */
  readonly baseline?: Baseline;
}

let seedRun: SeedRun | undefined;

async function measureLeads(run: LeadRun): Promise<Measurement> {
  const database = await (run.database?.() ?? createBenchDatabase(run.dialect, options.postgresUrl));
  const env = { ...SERVER_ENV, ...database.env, ...run.env };
  try {
    const storedLeads = run.database ? await database.countLeads() : 0;
    const server = await startServer('src/server.ts', env, {
      pinning,
      readyPath: '/healthz',
      nodeArgs: run.nodeArgs,
      root: run.baseline?.root,
    });
    let measured: Omit<Measurement, 'storedLeadsAfter'>;
    try {
      const load = await runLoad(
        spec(server, PUSH_PATH(database.distributionId), database.token, run.scenario),
        pinning,
      );
      requireAllSucceeded(run.label, load, server);
      measured = {
        label: run.label,
        database: run.dialect,
        scenario: run.scenario,
        load,
        peakRssMiB: server.peakRssMiB(),
        storedLeads,
        ...(run.baseline ? { baseline: run.baseline.revision } : {}),
      };
    } finally {
      await server.stop();
    }
    return { ...measured, storedLeadsAfter: await database.countLeads() };
  } finally {
    await database.drop();
  }
}

/**
 * A SQLite database holding `leads` leads, pushed through the HTTP endpoint (so through
 * every rule of the service) by a server process of its own; each stored-leads scenario
 * then runs on a copy of it.
 */
async function seedTemplate(leads: number): Promise<BenchDatabase> {
  const database = await createBenchDatabase('sqlite', options.postgresUrl);
  const env = { ...SERVER_ENV, WEBHOOK_WORKER: 'false', ...database.env };
  const seeder = await startServer('src/server.ts', env, { pinning, readyPath: '/healthz' });
  try {
    log(`pushing ${leads} leads into the stored-leads template`);
    const started = performance.now();
    const seeded = await runLoad(
      spec(seeder, PUSH_PATH(database.distributionId), database.token, 'minimal', {
        amount: leads,
        connections: options.seedConnections,
        prefix: 'seed',
        warmupSeconds: 0,
      }),
      pinning,
    );
    requireAllSucceeded('seeding', seeded, seeder);
    seedRun = { leads, seconds: (performance.now() - started) / 1000, connections: options.seedConnections };
  } finally {
    await seeder.stop();
  }
  log(`${await database.countLeads()} leads stored after ${seedRun.seconds.toFixed(0)} s`);
  return database;
}

/** BENCH_CPU_PROFILE: one scenario (BENCH_PROFILE_SCENARIO, BENCH_PROFILE_DATABASE) under `node --cpu-prof`; prints where the time went. */
async function profile(dir: string): Promise<void> {
  fs.mkdirSync(dir, { recursive: true });
  const before = new Set(fs.readdirSync(dir));
  const { profileScenario: scenario, profileDialect: dialect } = options;
  const measured = await measure(`${dialect} ${scenario} profiled`, options, () =>
    measureLeads({
      label: `${scenario} profiled`,
      dialect,
      scenario,
      nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${dir}`],
    }),
  );
  const written = fs.readdirSync(dir).filter((name) => !before.has(name) && name.endsWith('.cpuprofile'));
  for (const name of written) process.stdout.write(summariseCpuProfile(path.join(dir, name)));
  // The server's main thread wrote the largest profile (the checkpoint worker's is mostly idle).
  const main = written.sort((a, b) => fs.statSync(path.join(dir, b)).size - fs.statSync(path.join(dir, a)).size)[0];
  if (main) process.stdout.write(cpuPerRequestByArea(path.join(dir, main), measured.load.requestsPerSecond));
}

const SCENARIOS: ReadonlyArray<{ scenario: Scenario; label: string }> = [
  { scenario: 'minimal', label: '(a) minimal push, new lead' },
  { scenario: 'full', label: '(b) full push, new lead' },
  { scenario: 'merge', label: '(c) merge into existing lead' },
  { scenario: 'listing', label: 'GET .../leads, a page of 100 leads' },
];

async function benchmark(): Promise<void> {
  const measurements: Measurement[] = [];
  const startedAt = new Date();
  const machine = await describeMachine(options);
  const baseline = options.baseline === undefined ? undefined : prepareBaseline(options.baseline);
  log(
    `${options.warmupSeconds} s + ${options.durationSeconds} s per scenario at ${options.connections} connections, pinned: ${options.pin}` +
      (baseline ? `, each push scenario also at ${baseline.revision}, interleaved` : ''),
  );
  const echo = await measure('echo', options, measureEcho);
  const lead = (run: LeadRun) =>
    measure(`${run.dialect} ${run.label}${run.baseline ? ` (${run.baseline.revision})` : ''}`, options, () =>
      measureLeads(run),
    );
  for (const dialect of options.databases) {
    for (const { scenario, label } of SCENARIOS) {
      if (baseline && scenario !== 'listing') measurements.push(await lead({ label, dialect, scenario, baseline }));
      measurements.push(await lead({ label, dialect, scenario }));
    }
  }
  if (options.databases.includes('sqlite')) {
    measurements.push(
      await lead({
        label: '(a) minimal push, SQLITE_SYNCHRONOUS=FULL',
        dialect: 'sqlite',
        scenario: 'minimal',
        env: { SQLITE_SYNCHRONOUS: 'FULL' },
      }),
    );
    if (options.seedLeads > 0) {
      const template = await seedTemplate(options.seedLeads);
      try {
        for (const { scenario, label } of SCENARIOS.filter((s) => s.scenario === 'minimal' || s.scenario === 'merge')) {
          await waitForQuiet(label, options);
          measurements.push(
            await lead({
              label: `${label}, ${options.seedLeads} leads stored`,
              dialect: 'sqlite',
              scenario,
              database: () => cloneBenchDatabase(template),
            }),
          );
        }
      } finally {
        await template.drop();
      }
    }
  }
  const webhooks = await measureAllWebhooks();
  const soaks = await soakAll();
  const statements = await countStatements(options.databases, options.postgresUrl);
  log('raw writes (bench/write-limits.ts)');
  await waitForQuiet('raw writes', options);
  const limits = await measureWriteLimits(options.databases, options.postgresUrl);
  fs.mkdirSync(path.dirname(options.output), { recursive: true });
  fs.writeFileSync(
    options.output,
    renderReport({ options, machine, startedAt, echo, measurements, seedRun, webhooks, statements, limits, soaks }),
  );
  log(`wrote ${options.output}`);
}

/** Scenario (d) on each database: pushes with a callback, webhooks delivered meanwhile. */
async function measureAllWebhooks(): Promise<WebhookMeasurement[]> {
  const results: WebhookMeasurement[] = [];
  for (const dialect of options.databases) {
    results.push(
      (await measure(`${dialect} (d) webhooks`, options, () =>
        measureWebhooks(dialect, options, pinning),
      )) as WebhookMeasurement,
    );
  }
  return results;
}

/** The soak on each database, one after the other (bench/soak.ts); memory is no timing, so no re-runs for noise. */
async function soakAll(): Promise<SoakRun[]> {
  const runs: SoakRun[] = [];
  for (const dialect of options.databases) {
    await waitForQuiet(`${dialect} soak`, options);
    runs.push(await soak(dialect, options, pinning));
  }
  return runs;
}

/** BENCH_ONLY=soak: the soak alone, its section printed for docs/benchmarks.md. */
async function soakOnly(): Promise<void> {
  const startedAt = new Date();
  const machine = await describeMachine(options);
  const runs = await soakAll();
  process.stdout.write(renderSoakSection(runs, { options, machine, startedAt }));
}

/** BENCH_ONLY=webhooks: scenario (d) alone, its section printed for docs/benchmarks.md. */
async function webhooksOnly(): Promise<void> {
  const startedAt = new Date();
  const machine = await describeMachine(options);
  const webhooks = await measureAllWebhooks();
  process.stdout.write(renderWebhookSection(webhooks, { options, machine, startedAt }));
}

await (options.cpuProfileDir !== undefined
  ? profile(options.cpuProfileDir)
  : options.only === 'webhooks'
    ? webhooksOnly()
    : options.only === 'soak'
      ? soakOnly()
      : options.only === 'reference'
        ? referenceBenchmark(options, pinning)
        : options.only === 'scaling'
          ? scalingBenchmark(options, pinning)
          : options.only === 'inbox'
            ? inboxBenchmark(options, pinning)
            : options.only === 'batch'
              ? batchBenchmark(options, pinning)
              : options.only === 'erasure'
                ? erasureBenchmark(options, pinning)
                : options.only === 'client'
                  ? clientBenchmark(options, pinning)
                  : benchmark());
