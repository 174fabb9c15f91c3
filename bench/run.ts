// `npm run bench`: starts the real server (and a bare Fastify echo as the baseline) as
// child processes, drives each from a second process (bench/load.ts) on loopback, and
// writes docs/benchmarks.md. Every scenario gets a fresh database and a fresh server.
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { prepareBaseline } from './baseline.ts';
import { pushPath, withServer } from './bench-server.ts';
import { batchBenchmark } from './batch.ts';
import { clientBenchmark } from './client.ts';
import { pushComparison } from './compare.ts';
import { cpuPerRequestByArea, summariseCpuProfile } from './cpu-profile.ts';
import { type BenchDatabase, cloneBenchDatabase } from './database.ts';
import { erasureBenchmark } from './erasure.ts';
import { featureCostsBenchmark, featureCostsSection } from './feature-costs.ts';
import { inboxBenchmark } from './inbox.ts';
import { duplicatesBenchmark } from './duplicates.ts';
import { interleave, medianFigure, type ScenarioRounds } from './interleave.ts';
import { describeMachine } from './machine.ts';
import { log, measure, requireAllSucceeded, waitForQuiet, type Measurement } from './measure.ts';
import { readOptions } from './options.ts';
import { runLoad, startServer } from './processes.ts';
import { countPushCosts } from './push-cost.ts';
import { type LeadRun, loadSpecFor, measureLeads } from './push-run.ts';
import { DEFAULT_SCENARIOS, LISTING, PUSH_SCENARIOS, type ScenarioKey } from './push-scenarios.ts';
import { referenceBenchmark } from './reference.ts';
import { renderReport, renderWebhookSection, type SeedRun } from './report.ts';
import { scalingBenchmark } from './scaling.ts';
import { createBenchDatabase, CURRENT_CODE, type ServerCode } from './server-code.ts';
import { soak, type SoakRun } from './soak.ts';
import { renderSoakSection } from './soak-report.ts';
import { countStatements } from './statements.ts';
import type { WebhookMeasurement } from './webhooks.ts';
import { sustainBenchmark } from './webhook-sustain.ts';
import { measureWriteLimits } from './write-limits.ts';

const options = readOptions();
const pinning = { enabled: options.pin };

async function measureEcho(): Promise<Measurement> {
  const server = await startServer('bench/echo-server.ts', {}, { pinning, readyPath: '/' });
  try {
    const load = await runLoad(
      {
        url: server.url,
        path: pushPath('00000000-0000-4000-8000-000000000000'),
        token: null,
        scenario: 'minimal',
        prefix: `echo-${randomBytes(4).toString('hex')}`,
        connections: options.connections,
        warmupSeconds: options.warmupSeconds,
        durationSeconds: options.durationSeconds,
        serverPid: server.pid,
      },
      pinning,
    );
    requireAllSucceeded('echo', load, server);
    return { label: 'echo', database: null, scenario: 'minimal', load, peakRssMiB: server.peakRssMiB() };
  } finally {
    await server.stop();
  }
}

let seedRun: SeedRun | undefined;

const lead = (run: LeadRun) =>
  measure(`${run.dialect} ${run.label}`, options, () => measureLeads(run, options, pinning));

/**
 * A SQLite database holding `leads` leads, pushed through the HTTP endpoint (so through
 * every rule of the service) by a server process of its own; each stored-leads scenario
 * then runs on a copy of it.
 */
async function seedTemplate(leads: number): Promise<BenchDatabase> {
  const database = await createBenchDatabase('sqlite', options.postgresUrl);
  await withServer(database, CURRENT_CODE, { pinning, env: { WEBHOOK_WORKER: 'false' } }, async (seeder) => {
    log(`pushing ${leads} leads into the stored-leads template`);
    const started = performance.now();
    const seeded = await runLoad(
      loadSpecFor(seeder, 'minimal', options, {
        amount: leads,
        connections: options.seedConnections,
        prefix: 'seed',
        warmupSeconds: 0,
      }),
      pinning,
    );
    requireAllSucceeded('seeding', seeded, seeder.process);
    seedRun = { leads, seconds: (performance.now() - started) / 1000, connections: options.seedConnections };
  });
  log(`${await database.countLeads()} leads stored after ${seedRun!.seconds.toFixed(0)} s`);
  return database;
}

/**
 * BENCH_CPU_PROFILE: one scenario (BENCH_PROFILE_SCENARIO, BENCH_PROFILE_DATABASE) under
 * `node --cpu-prof`; prints where the time went. With BENCH_BASELINE, that revision's server
 * is profiled first, the same way.
 */
async function profile(dir: string): Promise<void> {
  fs.mkdirSync(dir, { recursive: true });
  const { profileScenario: scenario, profileDialect: dialect } = options;
  const codes = options.baseline === undefined ? [CURRENT_CODE] : [prepareBaseline(options.baseline), CURRENT_CODE];
  for (const code of codes) {
    const before = new Set(fs.readdirSync(dir));
    const measured = await measure(`${dialect} ${scenario} profiled at ${code.label}`, options, () =>
      measureLeads(
        { label: `${scenario} profiled`, dialect, scenario, code, nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${dir}`] },
        options,
        pinning,
      ),
    );
    process.stdout.write(`## ${dialect} ${scenario} at ${code.label}\n\n`);
    const written = fs.readdirSync(dir).filter((name) => !before.has(name) && name.endsWith('.cpuprofile'));
    for (const name of written) process.stdout.write(summariseCpuProfile(path.join(dir, name)));
    // The server's main thread wrote the largest profile (the checkpoint worker's is mostly idle).
    const main = written.sort((a, b) => fs.statSync(path.join(dir, b)).size - fs.statSync(path.join(dir, a)).size)[0];
    if (main) process.stdout.write(cpuPerRequestByArea(path.join(dir, main), measured.load));
  }
}

async function benchmark(): Promise<void> {
  const measurements: Measurement[] = [];
  const startedAt = new Date();
  const machine = await describeMachine(options);
  const codes = options.baseline === undefined ? [CURRENT_CODE] : [prepareBaseline(options.baseline), CURRENT_CODE];
  log(
    `${options.warmupSeconds} s + ${options.durationSeconds} s per scenario at ${options.connections} connections, pinned: ${options.pin}` +
      (codes.length > 1
        ? `, each push scenario also at ${codes[0]!.label}, interleaved, ${options.rounds} rounds`
        : ''),
  );
  const echo = await measure('echo', options, measureEcho);
  // Each table row is the round of median req/s; the comparison section quotes every round.
  const rounds: ScenarioRounds[] = [];
  const scenarios = [...PUSH_SCENARIOS.filter((s) => s.key === 'a' || s.key === 'b' || s.key === 'c'), LISTING];
  for (const dialect of options.databases) {
    for (const scenario of scenarios) {
      const taken = await interleave(dialect, scenario, codes, options, pinning);
      rounds.push(taken);
      for (const figures of taken.codes) {
        const figure = medianFigure(figures);
        if (figure) measurements.push(figure);
      }
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
        for (const { scenario, label } of PUSH_SCENARIOS.filter((s) => s.key === 'a' || s.key === 'c')) {
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
  const webhookRounds = await webhooksInRounds(codes);
  rounds.push(...webhookRounds);
  const webhooks = webhookRounds.flatMap((r) =>
    r.codes.flatMap((figures) => {
      const figure = figures.code === CURRENT_CODE ? medianFigure(figures) : undefined;
      return figure ? [figure as WebhookMeasurement] : [];
    }),
  );
  const soaks = await soakAll();
  const statements = await countStatements(options.databases, options.postgresUrl);
  const costs =
    codes.length > 1
      ? await countPushCosts(
          codes,
          options.databases,
          PUSH_SCENARIOS.filter((s) => DEFAULT_SCENARIOS.includes(s.key as ScenarioKey)),
          options.postgresUrl,
        )
      : [];
  // What each feature since the baseline costs, on the revisions that brought them (BENCH_COUNT=0 skips it).
  const features = codes.length > 1 && options.count ? await featureCostsSection(options) : undefined;
  log('raw writes (bench/write-limits.ts)');
  await waitForQuiet('raw writes', options);
  const limits = await measureWriteLimits(options.databases, options.postgresUrl);
  fs.mkdirSync(path.dirname(options.output), { recursive: true });
  fs.writeFileSync(
    options.output,
    renderReport({
      options,
      machine,
      startedAt,
      echo,
      measurements,
      seedRun,
      webhooks,
      statements,
      limits,
      soaks,
      rounds,
      costs,
      codes,
      features,
    }),
  );
  log(`wrote ${options.output}`);
}

/** Scenario (d) on each database, on every code that has webhooks, interleaved. */
async function webhooksInRounds(codes: readonly ServerCode[]): Promise<ScenarioRounds[]> {
  const scenario = PUSH_SCENARIOS.find((s) => s.scenario === 'webhook')!;
  const rounds: ScenarioRounds[] = [];
  for (const dialect of options.databases) rounds.push(await interleave(dialect, scenario, codes, options, pinning));
  return rounds;
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

/** BENCH_ONLY=webhooks: scenario (d) alone (beside BENCH_BASELINE's, interleaved), its section printed for docs/benchmarks.md. */
async function webhooksOnly(): Promise<void> {
  const startedAt = new Date();
  const machine = await describeMachine(options);
  const codes = options.baseline === undefined ? [CURRENT_CODE] : [prepareBaseline(options.baseline), CURRENT_CODE];
  const webhooks = (await webhooksInRounds(codes)).flatMap((r) =>
    r.codes.flatMap((figures) => (medianFigure(figures) as WebhookMeasurement | undefined) ?? []),
  );
  process.stdout.write(renderWebhookSection(webhooks, { options, machine, startedAt }));
}

/** BENCH_ONLY: one part of the benchmark alone, each printing its section or writing its page. */
const ONLY: Readonly<Record<NonNullable<typeof options.only>, () => Promise<void>>> = {
  push: () => pushComparison(options, pinning),
  webhooks: webhooksOnly,
  soak: soakOnly,
  reference: () => referenceBenchmark(options, pinning),
  scaling: () => scalingBenchmark(options, pinning),
  inbox: () => inboxBenchmark(options, pinning),
  batch: () => batchBenchmark(options, pinning),
  erasure: () => erasureBenchmark(options, pinning),
  client: () => clientBenchmark(options, pinning),
  duplicates: () => duplicatesBenchmark(options, pinning),
  features: () => featureCostsBenchmark(options),
  'webhook-sustain': () => sustainBenchmark(options, pinning, options.webhookSustainSeconds, options.webhookPlacements),
};

await (options.cpuProfileDir !== undefined
  ? profile(options.cpuProfileDir)
  : options.only !== undefined
    ? ONLY[options.only]()
    : benchmark());
