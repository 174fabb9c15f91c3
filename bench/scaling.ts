// BENCH_ONLY=scaling npm run bench: what several processes on one PostgreSQL cost and give
// (docs/design.md section 9), written to docs/benchmarks-scaling.md:
// - the cost of one push: statements, rows, WAL bytes, server and PostgreSQL CPU, counted
//   over a run of pushes (docs/scaling.md turns them into how far one primary carries);
// - 1 and 2 worker processes (`WORKERS`) on this machine: pushes and the listing;
// - what keeping rule 10 and the change listing costs: the same raw writes with and
//   without the writer's clock and with the per-key locks once used, interleaved;
// - a partner following the change listing while 8 others push at full speed.
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { withBenchServer } from './bench-server.ts';
import type { BenchDatabase } from './database.ts';
import type { FollowerResult, FollowerSpec } from './follower.ts';
import { describeMachine } from './machine.ts';
import { log, requireAllSucceeded, waitForQuiet } from './measure.ts';
import type { BenchOptions } from './options.ts';
import type { Scenario } from './payloads.ts';
import { postgresPids, processCpuSeconds, totalCpuSeconds } from './procfs.ts';
import { ROOT, runLoad, type Pinning } from './processes.ts';
import { loadSpecFor } from './push-run.ts';
import { createBenchDatabase } from './server-code.ts';
import { statementsSoFar } from './server-metrics.ts';
import { postgresLimit, type LimitScenario, type LookupVariant } from './write-limits.ts';
import { spawn } from 'node:child_process';

const LEAD_TABLES = [
  'parties',
  'leads',
  'external_refs',
  'party_callbacks',
  'risk_objects',
  'risk_object_revisions',
  'policy_packages',
  'insurance_policies',
  'coverages',
  'lead_pushes',
];

const fmt = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const SCALING_ENV = { WEBHOOK_WORKER: 'false' };

interface PushCost {
  readonly scenario: string;
  readonly pushes: number;
  readonly statements: number;
  readonly rows: number;
  readonly walBytes: number;
  readonly serverCpuMicros: number;
  readonly postgresCpuMicros: number;
  readonly pushesPerSecond: number;
}

async function adminQuery<T extends pg.QueryResultRow>(
  url: string,
  text: string,
  values: unknown[] = [],
): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

async function rowsIn(database: BenchDatabase): Promise<number> {
  const url = database.env.DATABASE_URL!;
  const counts = await adminQuery<{ n: string }>(
    url,
    LEAD_TABLES.map((table) => `select count(*) as n from ${table}`).join(' union all '),
  );
  return counts.reduce((sum, row) => sum + Number(row.n), 0);
}

/** `pushes` pushes of one scenario at 20 connections, and everything they cost. */
async function pushCost(
  options: BenchOptions,
  pinning: Pinning,
  scenario: Scenario,
  label: string,
  pushes: number,
): Promise<PushCost> {
  return withBenchServer(
    { engine: 'postgres', postgresUrl: options.postgresUrl, pinning, env: SCALING_ENV, readyPath: '/readyz' },
    async (server) => {
      await waitForQuiet(label, options);
      const statements = await statementsSoFar(server.url);
      const rows = await rowsIn(server.database);
      const [{ lsn }] = (await adminQuery<{ lsn: string }>(
        options.postgresUrl,
        'select pg_current_wal_lsn()::text as lsn',
      )) as [{ lsn: string }];
      const serverCpu = processCpuSeconds(server.pid)!;
      const pgPids = postgresPids();
      const postgresCpu = totalCpuSeconds(pgPids);
      const started = performance.now();
      const load = await runLoad(
        loadSpecFor(server, scenario, options, {
          prefix: `cost-${scenario}`,
          connections: 20,
          warmupSeconds: 0,
          durationSeconds: 0,
          amount: pushes,
          mergeLeads: 1000,
        }),
        pinning,
      );
      requireAllSucceeded(label, load, server.process);
      const seconds = (performance.now() - started) / 1000;
      const [{ bytes }] = (await adminQuery<{ bytes: string }>(
        options.postgresUrl,
        'select pg_wal_lsn_diff(pg_current_wal_lsn(), $1::pg_lsn)::text as bytes',
        [lsn],
      )) as [{ bytes: string }];
      // A merge run pushes its 1,000 targets first (load.ts): those are counted as pushes too.
      const counted = scenario === 'merge' ? pushes + 1000 : pushes;
      return {
        scenario: label,
        pushes: counted,
        statements: ((await statementsSoFar(server.url)) - statements) / counted,
        rows: ((await rowsIn(server.database)) - rows) / counted,
        walBytes: Number(bytes) / counted,
        serverCpuMicros: ((processCpuSeconds(server.pid)! - serverCpu) * 1e6) / counted,
        postgresCpuMicros: ((totalCpuSeconds(postgresPids()) - postgresCpu) * 1e6) / counted,
        pushesPerSecond: counted / seconds,
      };
    },
  );
}

interface WorkerRun {
  readonly workers: number;
  readonly label: string;
  readonly requestsPerSecond: number;
  readonly p99Ms: number;
}

/** (a), (b) and the listing with WORKERS=n; the server unpinned, so its workers may use both cores. */
async function workerRuns(options: BenchOptions, pinning: Pinning, workers: number): Promise<WorkerRun[]> {
  const runs: WorkerRun[] = [];
  for (const [scenario, label] of [
    ['minimal', '(a) minimal push'],
    ['full', '(b) full push'],
    ['listing', 'listing, leads per second'],
  ] as const) {
    await withBenchServer(
      {
        engine: 'postgres',
        postgresUrl: options.postgresUrl,
        pinning: { enabled: false },
        env: { ...SCALING_ENV, WORKERS: String(workers) },
        readyPath: '/readyz',
      },
      async (server) => {
        await waitForQuiet(`${workers} workers ${label}`, options);
        const load = await runLoad(
          loadSpecFor(server, scenario, options, { prefix: `workers-${workers}`, mergeLeads: 1000 }),
          pinning,
        );
        requireAllSucceeded(label, load, server.process);
        runs.push({
          workers,
          label,
          requestsPerSecond: load.requestsPerSecond * (scenario === 'listing' ? 100 : 1),
          p99Ms: load.p99Ms,
        });
        log(`${workers} worker(s), ${label}: ${fmt(runs.at(-1)!.requestsPerSecond)}/s, p99 ${fmt(load.p99Ms, 1)} ms`);
      },
    );
  }
  return runs;
}

async function follow(options: BenchOptions, pinning: Pinning, backlog: number): Promise<FollowerResult> {
  return withBenchServer(
    { engine: 'postgres', postgresUrl: options.postgresUrl, pinning, env: SCALING_ENV, readyPath: '/readyz' },
    async (server) => {
      await waitForQuiet('follower', options);
      const spec: FollowerSpec = {
        url: server.url,
        distributionId: server.distributionId,
        token: server.token,
        pushers: 8,
        seconds: 20,
        backlog,
      };
      const command = pinning.enabled ? 'taskset' : process.execPath;
      const args = [
        ...(pinning.enabled ? ['-c', '1', process.execPath] : []),
        path.join(ROOT, 'bench/follower.ts'),
        JSON.stringify(spec),
      ];
      const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk;
      });
      const code = await new Promise((resolve) => child.once('close', resolve));
      if (code !== 0) throw new Error(`the follower exited with ${code}`);
      return JSON.parse(stdout.trim().split('\n').at(-1)!) as FollowerResult;
    },
  );
}

/** The raw writes of (a) and (b) per lookup variant, three interleaved rounds, medians. */
async function lookupVariants(
  options: BenchOptions,
): Promise<
  Array<{ scenario: LimitScenario; variant: LookupVariant; pushesPerSecond: number; postgresCpuMicros: number }>
> {
  const samples = new Map<string, Array<{ rate: number; cpu: number }>>();
  for (let round = 0; round < 3; round++) {
    for (const scenario of ['minimal', 'full'] as const) {
      for (const variant of ['plain', 'writer-clock', 'key-locks'] as const) {
        const database = await createBenchDatabase('postgres', options.postgresUrl);
        try {
          const limit = await postgresLimit(database.env.DATABASE_URL!, database.distributionId, scenario, variant);
          const key = `${scenario} ${variant}`;
          samples.set(key, [
            ...(samples.get(key) ?? []),
            { rate: limit.pushesPerSecond, cpu: limit.postgresCpuMicros ?? NaN },
          ]);
        } finally {
          await database.drop();
        }
      }
    }
  }
  return [...samples].map(([key, values]) => {
    const [scenario, variant] = key.split(' ') as [LimitScenario, LookupVariant];
    return {
      scenario,
      variant,
      pushesPerSecond: median(values.map((v) => v.rate)),
      postgresCpuMicros: median(values.map((v) => v.cpu)),
    };
  });
}

export async function scalingBenchmark(options: BenchOptions, pinning: Pinning): Promise<void> {
  const startedAt = new Date();
  const machine = await describeMachine({ ...options, databases: ['postgres'] });
  log('cost per push');
  const costs = [
    await pushCost(options, pinning, 'minimal', '(a) minimal push, new lead', 3000),
    await pushCost(options, pinning, 'full', '(b) full push, new lead', 1000),
    await pushCost(options, pinning, 'merge', '(c) merge into existing lead', 3000),
  ];
  log('1 and 2 workers');
  const one = await workerRuns(options, pinning, 1);
  const two = await workerRuns(options, pinning, 2);
  log('lookup variants (raw writes)');
  const variants = await lookupVariants(options);
  log('a follower of the change listing');
  const following = await follow(options, pinning, 0);
  const catchingUp = await follow(options, pinning, 20_000);

  const variant = (scenario: LimitScenario, name: LookupVariant) =>
    variants.find((v) => v.scenario === scenario && v.variant === name)!;
  const out = [
    '# Benchmarks: several processes on one PostgreSQL',
    '',
    `_Generated by \`BENCH_ONLY=scaling npm run bench\` (bench/scaling.ts) on ${startedAt.toISOString().slice(0, 10)}; run it again rather than editing this file. docs/scaling.md reads these figures._`,
    '',
    `Machine: ${machine.cpu}, ${machine.cores} cores, ${fmt(machine.memoryGiB, 1)} GiB; PostgreSQL ${machine.postgres} on the same machine with default settings; ` +
      `Node.js ${machine.node}; code ${machine.revision}; load average at start ${machine.loadAverage}.`,
    '',
    '## What one push costs (PostgreSQL)',
    '',
    'Pushes sent at 20 connections to one server process (pinned to core 0; the webhook worker off), counted over the whole run: statements ' +
      'as the server counts them (each a round trip: the API token lookup, BEGIN and COMMIT included), rows written to the lead tables, ' +
      'WAL bytes from `pg_current_wal_lsn()` (the whole cluster: anything else writing meanwhile is in it), CPU of the server process and ' +
      'of all PostgreSQL processes. (c) includes the 1,000 leads it first creates, as the pushes they are.',
    '',
    '| Scenario | pushes | statements per push | rows per push | WAL bytes per push | server CPU µs per push | PostgreSQL CPU µs per push | pushes/s in this run |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...costs.map(
      (c) =>
        `| ${c.scenario} | ${fmt(c.pushes)} | ${fmt(c.statements, 1)} | ${fmt(c.rows, 1)} | ${fmt(c.walBytes)} | ${fmt(c.serverCpuMicros)} | ${fmt(c.postgresCpuMicros)} | ${fmt(c.pushesPerSecond)} |`,
    ),
    '',
    '## 1 and 2 worker processes on this machine',
    '',
    `\`WORKERS=1\` and \`WORKERS=2\`, the server not pinned (its workers and PostgreSQL share both cores with the load generator, pinned to core 1), ` +
      `${options.connections} connections, ${options.warmupSeconds} s warm-up, ${options.durationSeconds} s measured. The listing is the first page of 100 leads, counted in leads per second.`,
    '',
    '| Scenario | 1 worker, per second | p99 ms | 2 workers, per second | p99 ms | 2 workers / 1 |',
    '|---|---:|---:|---:|---:|---:|',
    ...one.map(
      (run, i) =>
        `| ${run.label} | ${fmt(run.requestsPerSecond)} | ${fmt(run.p99Ms, 1)} | ${fmt(two[i]!.requestsPerSecond)} | ${fmt(two[i]!.p99Ms, 1)} | ${fmt(two[i]!.requestsPerSecond / run.requestsPerSecond, 2)} |`,
    ),
    '',
    '## What rule 10 and the change listing cost',
    '',
    'The raw writes of bench/write-limits.ts (no HTTP, 10 connections, 50 pushes in flight), three interleaved rounds, medians: the lookup ' +
      "alone; with the writer's mark and clock read in the lookup statement, as every push does now so the change listing never skips a lead " +
      '(docs/design.md section 9); and with, before the lookup, a statement taking an advisory lock on each key of the push, the way rule 10 ' +
      'across processes was kept before a push read all its keys in one snapshot. Rule 10 itself costs nothing on the way: a lost race ' +
      'is a unique violation that runs the push again.',
    '',
    '| Scenario | lookup only, pushes/s | + writer clock | + per-key locks (before) | PostgreSQL CPU µs per push: lookup only | + writer clock | + per-key locks |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...(['minimal', 'full'] as const).map((scenario) => {
      const plain = variant(scenario, 'plain');
      const clock = variant(scenario, 'writer-clock');
      const locks = variant(scenario, 'key-locks');
      return (
        `| ${scenario === 'minimal' ? '(a) minimal' : '(b) full'} | ${fmt(plain.pushesPerSecond)} | ${fmt(clock.pushesPerSecond)} | ${fmt(locks.pushesPerSecond)} | ` +
        `${fmt(plain.postgresCpuMicros)} | ${fmt(clock.postgresCpuMicros)} | ${fmt(locks.postgresCpuMicros)} |`
      );
    }),
    '',
    '## A partner following the change listing',
    '',
    'One server process; 8 pushers at full speed and a follower reading `GET .../leads?updated_since=...&limit=100`, following `next` to the ' +
      'end, then asking again from the newest `updated_at` it saw (after 100 ms when it had caught up), in a process of their own, for 20 s. ' +
      '"Delay" is from a push\'s answer to the follower\'s first sight of that lead; "missed" counts acknowledged leads it never saw after ' +
      'reading on for up to 10 s. With a backlog, the follower starts from the beginning with 20,000 leads behind it.',
    '',
    '| Run | pushes/s | leads read/s | pages/s | delay p50 ms | p99 ms | max ms | missed | caught up after s |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...[
      ['no backlog', following],
      ['20,000 leads behind', catchingUp],
    ].map(([label, r]) => {
      const f = r as FollowerResult;
      return (
        `| ${label as string} | ${fmt(f.pushesPerSecond)} | ${fmt(f.leadsReadPerSecond)} | ${fmt(f.pagesPerSecond, 1)} | ${fmt(f.delayP50Ms)} | ${fmt(f.delayP99Ms)} | ` +
        `${fmt(f.delayMaxMs)} | ${fmt(f.missed)} of ${fmt(f.pushed)} | ${f.catchUpSeconds === null ? 'n/a' : fmt(f.catchUpSeconds, 1)} |`
      );
    }),
    '',
  ];
  const file = path.join(ROOT, 'docs', 'benchmarks-scaling.md');
  fs.writeFileSync(file, out.join('\n'));
  log(`wrote ${file}`);
}
