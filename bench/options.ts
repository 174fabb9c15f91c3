// Benchmark settings from the environment, so a quick run is one variable away:
//   BENCH_DURATION=3 BENCH_WARMUP=1 BENCH_SEED_LEADS=0 npm run bench
import os from 'node:os';
import path from 'node:path';
import type { BenchDialect } from './database.ts';
import type { Scenario } from './payloads.ts';
import { ROOT } from './processes.ts';
import { DEFAULT_SCENARIOS, PUSH_SCENARIOS, type ScenarioKey } from './push-scenarios.ts';

/**
 * Where BENCH_ONLY=webhook-sustain runs deliveries: `off` none (the pushes alone), `main` the
 * server's own event loop, `thread` a worker thread of the server, `process` a `lead-intake
 * webhook work` process beside it on the server's core (the same CPU the thread gets: the
 * comparison is of placement, not of cores).
 */
export const PLACEMENTS = ['off', 'main', 'thread', 'process'] as const;
export type Placement = (typeof PLACEMENTS)[number];

const PROFILED_SCENARIOS: readonly Scenario[] = ['minimal', 'full', 'merge'];

export interface BenchOptions {
  /** Seconds measured per scenario, after `warmupSeconds` of unmeasured load. */
  readonly durationSeconds: number;
  readonly warmupSeconds: number;
  readonly connections: number;
  /** Scenario (c): leads created first, then merged into round-robin. */
  readonly mergeLeads: number;
  /** Leads stored before the second scenario (a) run on SQLite; 0 skips that comparison. */
  readonly seedLeads: number;
  readonly seedConnections: number;
  readonly databases: readonly BenchDialect[];
  readonly postgresUrl: string;
  /** Server on core 0, load generator on core 1 (taskset). */
  readonly pin: boolean;
  /** Before each measurement, wait until the machine is at most this busy (% of one core)... */
  readonly quietCpuPercent: number;
  /** ...for at most this long. */
  readonly quietWaitSeconds: number;
  /** When set, no report: one scenario under `node --cpu-prof`, written here and summarised. */
  readonly cpuProfileDir: string | undefined;
  /** The scenario and database profiled (default: (a) minimal on SQLite). */
  readonly profileScenario: Scenario;
  readonly profileDialect: BenchDialect;
  /** `push`: scenarios (a) to (d), against BENCH_BASELINE when set, printed as a section (bench/compare.ts).
   *  `webhooks`: run only scenario (d) and print its section (markdown) instead of writing the report.
   *  `reference`: only the reference databases (bench/reference.ts), written to docs/benchmarks-reference.md. */
  readonly only:
    | 'push'
    | 'webhooks'
    | 'reference'
    | 'scaling'
    | 'soak'
    | 'inbox'
    | 'batch'
    | 'erasure'
    | 'client'
    | 'duplicates'
    | 'features'
    | 'webhook-sustain'
    | undefined;
  readonly output: string;
  /** The soak (bench/soak.ts): mixed requests per database, then seconds idle. */
  readonly soakRequests: number;
  readonly soakIdleSeconds: number;
  /** BENCH_BASELINE: a git revision whose server is measured too, interleaved (bench/baseline.ts). */
  readonly baseline: string | undefined;
  /** Figures per code and push scenario, taken in turn (baseline, current, baseline, ...); the reports quote their median. */
  readonly rounds: number;
  /** BENCH_SCENARIOS: the push scenarios BENCH_ONLY=push runs, by letter. */
  readonly scenarios: readonly ScenarioKey[];
  /** BENCH_COUNT=0: no counted pushes (statements, rows, WAL bytes) in BENCH_ONLY=push. */
  readonly count: boolean;
  /** BENCH_ONLY=webhook-sustain: seconds of load (BENCH_WEBHOOK_SUSTAIN) and where the worker runs, each in turn. */
  readonly webhookSustainSeconds: number;
  readonly webhookPlacements: readonly Placement[];
}

export function readOptions(env: Record<string, string | undefined> = process.env): BenchOptions {
  const problems: string[] = [];
  const int = (name: string, fallback: number, min: number): number => {
    const raw = env[name]?.trim();
    if (!raw) return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min) {
      problems.push(`${name}=${JSON.stringify(raw)}: must be an integer >= ${min}`);
      return fallback;
    }
    return value;
  };
  const databases = (env.BENCH_DATABASES?.trim() || 'sqlite,postgres').split(',').map((d) => d.trim());
  for (const database of databases) {
    if (database !== 'sqlite' && database !== 'postgres')
      problems.push(`BENCH_DATABASES: unknown database ${JSON.stringify(database)} (sqlite, postgres)`);
  }
  const scenarios = (env.BENCH_SCENARIOS?.trim() || DEFAULT_SCENARIOS.join(',')).split(',').map((key) => key.trim());
  for (const key of scenarios) {
    if (!PUSH_SCENARIOS.some((s) => s.key === key))
      problems.push(
        `BENCH_SCENARIOS: unknown scenario ${JSON.stringify(key)} (${PUSH_SCENARIOS.map((s) => s.key).join(', ')})`,
      );
  }
  const placements = (env.BENCH_WEBHOOK_WORKERS?.trim() || 'off,main,thread,process').split(',').map((p) => p.trim());
  for (const placement of placements)
    if (!(PLACEMENTS as readonly string[]).includes(placement))
      problems.push(`BENCH_WEBHOOK_WORKERS: unknown placement ${JSON.stringify(placement)} (${PLACEMENTS.join(', ')})`);
  const options: BenchOptions = {
    durationSeconds: int('BENCH_DURATION', 10, 1),
    warmupSeconds: int('BENCH_WARMUP', 2, 0),
    connections: int('BENCH_CONNECTIONS', 50, 1),
    mergeLeads: int('BENCH_MERGE_LEADS', 1000, 1),
    seedLeads: int('BENCH_SEED_LEADS', 1_000_000, 0),
    seedConnections: int('BENCH_SEED_CONNECTIONS', 100, 1),
    databases: databases as BenchDialect[],
    postgresUrl: env.BENCH_POSTGRES_URL?.trim() || 'postgres://postgres@127.0.0.1:5432/test',
    pin: env.BENCH_PIN !== '0' && os.availableParallelism() >= 2,
    quietCpuPercent: int('BENCH_QUIET_CPU', 25, 0),
    quietWaitSeconds: int('BENCH_QUIET_WAIT', 300, 0),
    cpuProfileDir: env.BENCH_CPU_PROFILE?.trim() ? path.resolve(env.BENCH_CPU_PROFILE.trim()) : undefined,
    profileScenario: (env.BENCH_PROFILE_SCENARIO?.trim() || 'minimal') as Scenario,
    profileDialect: (env.BENCH_PROFILE_DATABASE?.trim() || 'sqlite') as BenchDialect,
    output: path.resolve(ROOT, env.BENCH_OUTPUT?.trim() || 'docs/benchmarks.md'),
    baseline: env.BENCH_BASELINE?.trim() || undefined,
    rounds: int('BENCH_ROUNDS', env.BENCH_BASELINE?.trim() ? 3 : 1, 1),
    scenarios: scenarios as ScenarioKey[],
    count: env.BENCH_COUNT?.trim() !== '0',
    soakRequests: int('BENCH_SOAK_REQUESTS', 100_000, 1),
    soakIdleSeconds: int('BENCH_SOAK_IDLE', 15, 0),
    webhookSustainSeconds: int('BENCH_WEBHOOK_SUSTAIN', 60, 10),
    webhookPlacements: placements as Placement[],
    only: (
      [
        'push',
        'webhooks',
        'reference',
        'scaling',
        'soak',
        'inbox',
        'batch',
        'erasure',
        'client',
        'duplicates',
        'features',
        'webhook-sustain',
      ] as const
    ).find((only) => only === env.BENCH_ONLY?.trim()),
  };
  if (env.BENCH_ONLY?.trim() && options.only === undefined)
    problems.push(
      `BENCH_ONLY=${JSON.stringify(env.BENCH_ONLY)}: the choices are push, webhooks, reference, scaling, soak, inbox, batch, erasure, client, duplicates, features, webhook-sustain`,
    );
  if (
    options.baseline !== undefined &&
    options.only !== undefined &&
    options.only !== 'push' &&
    options.only !== 'webhooks'
  )
    problems.push(
      `BENCH_BASELINE is measured by the full run, BENCH_ONLY=push, BENCH_ONLY=webhooks and BENCH_CPU_PROFILE; BENCH_ONLY=${options.only} measures this checkout alone`,
    );
  // Read by bench/server-code.ts as it prepares this checkout's databases.
  if (!['', 'round_robin'].includes(env.BENCH_ROUTING?.trim() ?? ''))
    problems.push('BENCH_ROUTING: round_robin, or unset for no routing rules');
  if (!PROFILED_SCENARIOS.includes(options.profileScenario))
    problems.push(`BENCH_PROFILE_SCENARIO: one of ${PROFILED_SCENARIOS.join(', ')}`);
  if (!['sqlite', 'postgres'].includes(options.profileDialect))
    problems.push('BENCH_PROFILE_DATABASE: sqlite or postgres');
  if (problems.length > 0) throw new Error(`Invalid benchmark settings:\n  - ${problems.join('\n  - ')}`);
  return options;
}
