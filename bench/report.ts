// Renders docs/benchmarks.md from the measurements of one run.
import { renderRoundsAndCosts } from './compare.ts';
import type { ScenarioRounds } from './interleave.ts';
import type { PushCost } from './push-cost.ts';
import type { ServerCode } from './server-code.ts';
import { renderStatementTable, type StatementCount } from './statements.ts';
import type { BenchDialect } from './database.ts';
import type { Machine } from './machine.ts';
import { otherCpuPercent, type Measurement } from './measure.ts';
import type { BenchOptions } from './options.ts';
import type { Scenario } from './payloads.ts';
import type { WebhookMeasurement } from './webhooks.ts';
import { renderSoakSection } from './soak-report.ts';
import type { SoakRun } from './soak.ts';
import { renderWriteLimits, type LimitScenario, type WriteLimit } from './write-limits.ts';

export interface SeedRun {
  readonly leads: number;
  readonly seconds: number;
  readonly connections: number;
}

export interface Report {
  readonly options: BenchOptions;
  readonly machine: Machine;
  readonly startedAt: Date;
  readonly echo: Measurement;
  readonly measurements: readonly Measurement[];
  readonly seedRun: SeedRun | undefined;
  readonly webhooks?: readonly WebhookMeasurement[];
  /** Statements per push and per page (bench/statements.ts). */
  readonly statements?: readonly StatementCount[];
  /** The same rows written straight to the database (bench/write-limits.ts). */
  readonly limits?: readonly WriteLimit[];
  /** Memory under a long mixed load (bench/soak.ts). */
  readonly soaks?: readonly SoakRun[];
  /** Every round of each push scenario, per code (bench/interleave.ts); the tables show the median one. */
  readonly rounds?: readonly ScenarioRounds[];
  /** What a push costs, counted, per code (bench/push-cost.ts). */
  readonly costs?: readonly PushCost[];
  /** The codes measured: BENCH_BASELINE's revision first, when there is one, then this checkout. */
  readonly codes?: readonly ServerCode[];
  /** What each feature since the baseline costs a push, as its section (bench/feature-costs.ts). */
  readonly features?: string;
}

const INTRO = `Each figure comes from two processes on one machine, talking over loopback: the real
server (\`node src/server.ts\`, NODE_ENV=production, LOG_LEVEL=warn, RATE_LIMIT=off, migrations applied, a
fresh database per scenario) and a load generator (autocannon, in \`bench/load.ts\`) in a
process of its own, so the generator never shares the server's event loop. With two or
more cores the server is pinned to core 0 and the generator to core 1. Every request
carries its own body (unique external refs, ids and VINs), every answer is checked to
be 2xx, and the run stops if one is not. The baseline is a bare Fastify server of the
same version (\`bench/echo-server.ts\`) that parses the minimal push body and sends it
back: what HTTP and JSON alone cost here, so each figure is also given as a share of it.`;

/** How a change is measured against the code before it: said at the top, as every such figure needs it. */
const COMPARING = `To measure a change against the code before it, run both in one run:
\`BENCH_BASELINE=f955e96 BENCH_ONLY=push npm run bench > push.md\` (any revision since the first
push, 70bfddd). The revision is exported into ~/.cache/lead-intake-bench/<commit> and
installed there with its own \`npm ci\`, once; each of its figures gets a fresh database
that its own code migrated and gave a token. The two codes take turns, BENCH_ROUNDS (3)
figures each, and the section gives every round, the medians and their ratio, skips (with
the reason) a scenario the revision lacks, and counts what a push costs on both:
statements, PostgreSQL round trips, rows written and SQLite WAL bytes. The machine these
figures come from is shared: compare figures of one run, through their ratio, never a
figure with another run's.`;

const fmt = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const percent = (ratio: number) => `${fmt(ratio * 100, ratio < 0.1 ? 1 : 0)}%`;

function row(m: Measurement, echo: Measurement, label = m.label): string {
  const l = m.load;
  return (
    `| ${label} | ${fmt(l.requestsPerSecond)} | ${percent(l.requestsPerSecond / echo.load.requestsPerSecond)} | ` +
    `${fmt(l.p50Ms, 2)} | ${fmt(l.p99Ms, 2)} | ${l.non2xx} | ${fmt(l.serverCpuPercent ?? NaN)}% | ${fmt(l.postgresCpuPercent)}% | ` +
    `${fmt(l.generatorCpuPercent)}% | ${fmt(otherCpuPercent(l))}% | ${fmt(m.peakRssMiB)} |`
  );
}

const HEADER =
  '| Scenario | req/s | of echo | p50 ms | p99 ms | non-2xx | server CPU | PostgreSQL CPU | generator CPU | other CPU | peak RSS MiB |\n' +
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|';

/** The server's CPU per request in µs (its share of one core over the requests it answered). */
function cpuMicrosPerRequest(m: Measurement): number | undefined {
  const cpu = m.load.serverCpuPercent;
  return cpu === null ? undefined : (cpu / 100) * (1e6 / m.load.requestsPerSecond);
}

const met = (ok: boolean) => (ok ? '**met**' : '**not met**');

export function renderReport({
  options,
  machine,
  startedAt,
  echo,
  measurements,
  seedRun,
  webhooks = [],
  statements = [],
  limits = [],
  soaks = [],
  rounds = [],
  costs = [],
  codes = [],
  features,
}: Report): string {
  const current = measurements.filter((m) => m.baseline === undefined);
  const find = (database: BenchDialect, scenario: Scenario, list = current) =>
    list.find((m) => m.database === database && m.scenario === scenario && !m.storedLeads && !m.label.includes('FULL'));
  const baselineOf = (database: BenchDialect, scenario: Scenario) =>
    find(
      database,
      scenario,
      measurements.filter((m) => m.baseline !== undefined),
    );
  const seededOf = (scenario: Scenario) =>
    current.find((m) => m.database === 'sqlite' && m.scenario === scenario && m.storedLeads);
  const limitOf = (database: BenchDialect, scenario: LimitScenario) =>
    limits.find((l) => l.dialect === database && l.scenario === scenario);
  const baselineRevision = measurements.find((m) => m.baseline !== undefined)?.baseline;
  const out: string[] = [
    '# Benchmarks',
    '',
    `_Generated by \`npm run bench\` (bench/run.ts) on ${startedAt.toISOString().slice(0, 10)}; run it again rather than editing this file._`,
    '',
    INTRO.replace(/\n/g, ' '),
    '',
    COMPARING.replace(/\n/g, ' '),
    '',
    '## Machine and settings',
    '',
    '| | |',
    '|---|---|',
    `| CPU | ${machine.cpu} |`,
    `| Cores | ${machine.cores} |`,
    `| Memory | ${fmt(machine.memoryGiB, 1)} GiB |`,
    `| OS | ${machine.kernel} |`,
    `| Server code (git) | ${machine.revision} |`,
    ...(baselineRevision
      ? [
          `| Baseline code (git) | ${baselineRevision}: each push scenario measured on it too, ${options.rounds} round${options.rounds === 1 ? '' : 's'} taking turns with the current code; each row is the round of median req/s (BENCH_BASELINE) |`,
        ]
      : []),
    `| Node.js | ${machine.node} |`,
    `| SQLite | ${machine.sqlite} (node:sqlite), WAL, synchronous=NORMAL unless stated |`,
    ...(machine.postgres
      ? [`| PostgreSQL | ${machine.postgres} on the same machine, default settings, server pool of 10 connections |`]
      : []),
    `| Load | autocannon, ${options.connections} keep-alive connections per scenario: ${options.warmupSeconds} s warm-up, then ${options.durationSeconds} s measured on the same connections |`,
    `| Pinning | ${options.pin ? 'server on core 0, load generator on core 1 (taskset); PostgreSQL is not pinned and shares both cores' : 'none'} |`,
    `| Date | ${startedAt.toISOString()} |`,
    `| Load average at start | ${machine.loadAverage} |`,
    '',
    'Scenarios: (a) a minimal customer push (names and one external ref) that creates a new lead each time; ' +
      '(b) a full push creating a new lead with 3 cars, 2 policy packages and 6 policies of 3 coverages each; ' +
      `(c) pushes that merge a new phone number into one of ${fmt(options.mergeLeads)} existing leads, round-robin by external ref; ` +
      `the change listing's first page of 100 leads (GET .../leads?limit=100, ${fmt(options.mergeLeads)} leads stored). ` +
      '"of echo" is req/s as a share of the echo baseline; CPU is the share of one core used during the measured window ' +
      '(PostgreSQL counts all of its processes; "other" is whatever else ran on the machine meanwhile); ' +
      "peak RSS is the server's VmHWM at the end of the run. Rows marked with a revision ran the server of that revision.",
    '',
    '## Baseline: bare Fastify echo',
    '',
    HEADER,
    row(echo, echo, 'echo, minimal push body'),
    ...(echo.load.generatorCpuPercent >= 95
      ? [
          '',
          'The load generator used its whole core against the echo server, so the echo figure is what one generator core can ' +
            'drive rather than all bare Fastify can serve: the shares of echo below are, if anything, generous.',
        ]
      : []),
  ];
  for (const database of ['sqlite', 'postgres'] as const) {
    const rows = measurements.filter((m) => m.database === database && !m.storedLeads);
    if (rows.length === 0) continue;
    out.push(
      '',
      `## ${database === 'sqlite' ? 'SQLite' : 'PostgreSQL'}`,
      '',
      HEADER,
      ...rows.map((m) => row(m, echo, m.baseline === undefined ? m.label : `${m.label}, at ${m.baseline}`)),
    );
  }
  const seeded = (['minimal', 'merge'] as const).flatMap((scenario) => {
    const zero = find('sqlite', scenario);
    const stored = seededOf(scenario);
    return zero && stored ? [{ zero, stored }] : [];
  });
  if (seeded.length > 0) {
    out.push(
      '',
      '## Stored leads (SQLite)',
      '',
      '| Scenario | stored leads at start | at end | req/s | p50 ms | p99 ms | peak RSS MiB |',
      '|---|---:|---:|---:|---:|---:|---:|',
    );
    for (const { zero, stored } of seeded) {
      const line = (m: Measurement) =>
        `| ${zero.label} | ${fmt(m.storedLeads ?? 0)} | ${fmt(m.storedLeadsAfter ?? NaN)} | ${fmt(m.load.requestsPerSecond)} | ` +
        `${fmt(m.load.p50Ms, 2)} | ${fmt(m.load.p99Ms, 2)} | ${fmt(m.peakRssMiB)} |`;
      out.push(
        line(zero),
        line(stored),
        `| ratio | | | ${fmt(stored.load.requestsPerSecond / zero.load.requestsPerSecond, 2)} | ${fmt(stored.load.p50Ms / zero.load.p50Ms, 2)} | ${fmt(stored.load.p99Ms / zero.load.p99Ms, 2)} | |`,
      );
    }
    if (seedRun) {
      out.push(
        '',
        `The stored leads were pushed through the same HTTP endpoint (so through every rule of the service) by a server process of their own, ` +
          `${fmt(seedRun.connections)} connections, in ${fmt(seedRun.seconds)} s (${fmt(seedRun.leads / seedRun.seconds)} leads/s); ` +
          'each measured server then started on a copy of that database.',
      );
    }
  }
  if (statements.length > 0) {
    out.push(
      '',
      '## Statements per push',
      '',
      'Counted by the server itself (`lead_intake_database_statements_total`), pushes sent one at a time (bench/statements.ts), ' +
        "the API token lookup and the transaction's BEGIN and COMMIT included (group commit shares those two among a batch on SQLite under load). " +
        'They do not grow with the number of cars, policies or coverages: new rows go in one multi-row INSERT per table ' +
        '(on PostgreSQL, one statement for all tables) and lookups are batched by key. On PostgreSQL every statement is a round trip.',
      '',
      renderStatementTable(statements).trimEnd(),
    );
  }
  if (limits.length > 0) {
    out.push(
      '',
      '## The limit: the same rows written straight to the database',
      '',
      "bench/write-limits.ts writes the rows each scenario stores (the lookup by external ref, then every table's rows; for a merge " +
        'the head read and the party and lead updates, and the push log entry) with no HTTP, no validation, no matching and no answer: ' +
        'on SQLite with prepared statements on node:sqlite, 50 pushes to a transaction in savepoints as group commit does; on ' +
        'PostgreSQL over 10 connections with 50 pushes in flight, one statement over unnested arrays for all new rows, named prepared ' +
        'statements. Each figure above can be read against these.',
      '',
      renderWriteLimits(limits).trimEnd(),
    );
  }
  if (webhooks.length > 0) out.push('', renderWebhookSection(webhooks).trimEnd());
  if (codes.length > 1) {
    out.push(
      '',
      `## Against ${codes[0]!.label}, interleaved`,
      '',
      `Each push scenario ${options.rounds === 1 ? 'once' : `${options.rounds} times`} on ${codes[0]!.label} and on the current code, taking turns, each figure on a fresh ` +
        'database migrated by its own code: medians in bold, each round in brackets, and the ratio of the medians.',
      '',
      renderRoundsAndCosts(rounds, costs, codes).trimEnd(),
    );
  }
  if (features !== undefined) out.push('', features.trimEnd());

  out.push('', '## Targets', '', '| Target | Observed | Limit measured for it | |', '|---|---|---|---|');
  const limitText = (database: BenchDialect, scenario: LimitScenario) => {
    const limit = limitOf(database, scenario);
    return limit ? `raw writes ${fmt(limit.pushesPerSecond)}/s` : '';
  };
  const times = (
    database: BenchDialect,
    scenario: Scenario,
    factor: number,
    label: string,
    limitScenario: LimitScenario,
  ) => {
    const now = find(database, scenario);
    const before = baselineOf(database, scenario);
    if (!now) return;
    if (!before) {
      out.push(
        `| ${label}: at least ${factor}x the baseline's req/s | ${fmt(now.load.requestsPerSecond)} req/s; no baseline in this run (BENCH_BASELINE) | ${limitText(database, limitScenario)} | |`,
      );
      return;
    }
    const ratio = now.load.requestsPerSecond / before.load.requestsPerSecond;
    const needed = factor * before.load.requestsPerSecond;
    const limit = limitOf(database, limitScenario);
    // The target in req/s next to what the database alone allows: above it, no HTTP server can reach it.
    const reach = limit
      ? `; the target is ${fmt(needed)} req/s, ${needed > limit.pushesPerSecond ? 'above' : 'within'} that limit`
      : '';
    out.push(
      `| ${label}: at least ${factor}x the req/s of ${before.baseline} | ${fmt(now.load.requestsPerSecond)} vs ${fmt(before.load.requestsPerSecond)} req/s: ${fmt(ratio, 1)}x | ` +
        `${limitText(database, limitScenario)}${reach} | ${met(ratio >= factor)} |`,
    );
  };
  const ofEcho = (
    database: BenchDialect,
    scenario: Scenario,
    share: number,
    label: string,
    limitScenario: LimitScenario,
  ) => {
    const now = find(database, scenario);
    if (!now) return;
    const ratio = now.load.requestsPerSecond / echo.load.requestsPerSecond;
    out.push(
      `| ${label}: at least ${percent(share)} of echo req/s | ${percent(ratio)} (${fmt(now.load.requestsPerSecond)} req/s) | ${limitText(database, limitScenario)}${ceiling(database, limitScenario, now, share)} | ${met(ratio >= share)} |`,
    );
  };
  /**
   * On one server core a push costs at least its raw writes plus what the echo server spends
   * on a request: together a ceiling in req/s. Next to it, what the rest of the push (parsing,
   * validation, matching, merge, the answer) may cost to meet the share, and what it costs.
   */
  const ceiling = (database: BenchDialect, scenario: LimitScenario, now: Measurement, share: number) => {
    const limit = limitOf(database, scenario);
    const echoCpu = cpuMicrosPerRequest(echo);
    const nowCpu = cpuMicrosPerRequest(now);
    if (!limit || echoCpu === undefined || nowCpu === undefined) return '';
    const floor = limit.writerCpuMicros + echoCpu;
    const budget = 1e6 / (share * echo.load.requestsPerSecond) - floor;
    return (
      `; with bare HTTP (${fmt(echoCpu)} µs a request) a ceiling of ${fmt(1e6 / floor)} req/s, ${percent(1e6 / floor / echo.load.requestsPerSecond)} of echo. ` +
      `Meeting ${percent(share)} leaves ${fmt(Math.max(0, budget))} µs a push for everything else; it takes ${fmt(nowCpu - floor)} µs`
    );
  };
  const p99 = (database: BenchDialect, scenario: Scenario, ms: number, label: string) => {
    const now = find(database, scenario);
    if (now)
      out.push(
        `| ${label}: p99 under ${ms} ms at ${options.connections} connections | ${fmt(now.load.p99Ms, 2)} ms | | ${met(now.load.p99Ms < ms)} |`,
      );
  };
  times('sqlite', 'full', 10, '(b) full push on SQLite', 'full');
  p99('sqlite', 'full', 50, '(b) full push on SQLite');
  times('postgres', 'full', 5, '(b) full push on PostgreSQL', 'full');
  ofEcho('sqlite', 'minimal', 0.25, '(a) minimal push on SQLite', 'minimal');
  p99('sqlite', 'minimal', 10, '(a) minimal push on SQLite');
  times('postgres', 'minimal', 3, '(a) minimal push on PostgreSQL', 'minimal');
  ofEcho('sqlite', 'merge', 0.2, '(c) merge on SQLite', 'merge');
  for (const database of ['sqlite', 'postgres'] as const) {
    const count = (label: string) => statements.find((c) => c.dialect === database && c.label.startsWith(label));
    const minimal = count('(a)');
    const full = count('(b)');
    if (minimal && full) {
      const extraTables = 5; // risk objects, revisions, packages, policies, coverages
      const perTable =
        database === 'sqlite'
          ? full.statements - minimal.statements <= extraTables + 0.5
          : full.statements <= minimal.statements + 0.5;
      out.push(
        `| Statements per push on ${database} do not grow with cars, policies or coverages | (a) ${fmt(minimal.statements, 1)}, (b) ${fmt(full.statements, 1)} ` +
          `(${database === 'sqlite' ? 'one more per table a full push also writes' : 'all new rows in one statement'}) | | ${met(perTable)} |`,
      );
    }
    const page = count('GET');
    const listing = find(database, 'listing');
    if (page)
      out.push(
        `| GET .../leads, 100 leads per page, on ${database}: a handful of queries | ${fmt(page.statements)} statements per page` +
          `${listing ? `, ${fmt(listing.load.requestsPerSecond)} pages/s` : ''} | | ${met(page.statements <= 10)} |`,
      );
  }
  for (const { zero, stored } of seeded) {
    const ratio = stored.load.p50Ms / zero.load.p50Ms;
    out.push(
      `| ${zero.label.slice(0, 3)} on SQLite flat with stored data: p50 at ${fmt(stored.storedLeads!)} leads within 1.25x of p50 at 0 | ${fmt(ratio, 2)}x | | ${met(ratio <= 1.25)} |`,
    );
  }
  if (soaks.length > 0) out.push('', renderSoakSection(soaks));
  out.push(
    '',
    '## How to run',
    '',
    'PostgreSQL must be reachable (default `postgres://postgres@127.0.0.1:5432/test`; each scenario creates and drops a database of its own). Then:',
    '',
    '```sh',
    'npm run bench                      # everything, writes docs/benchmarks.md (about 20 minutes here, most of it pushing 1,000,000 leads)',
    'BENCH_DURATION=3 BENCH_WARMUP=1 BENCH_SEED_LEADS=0 BENCH_DATABASES=sqlite BENCH_OUTPUT=/tmp/bench.md npm run bench   # a quick look',
    'BENCH_BASELINE=f955e96 BENCH_ONLY=push npm run bench > push.md   # (a) to (d) on both databases against f955e96, interleaved, with the counted costs, as a section to paste',
    'BENCH_BASELINE=HEAD~1 BENCH_ONLY=push BENCH_SCENARIOS=a,keyed BENCH_DATABASES=sqlite BENCH_DURATION=3 npm run bench   # a quick look at one change',
    'BENCH_ONLY=webhooks npm run bench > webhooks.md   # only scenario (d), webhooks under push load, as a section to paste',
    'BENCH_ONLY=reference BENCH_REFERENCE_SCALE=0.25 npm run bench   # the reference databases, writes docs/benchmarks-reference.md',
    'BENCH_ONLY=batch npm run bench > batch.md        # batches and Idempotency-Key against single pushes, as a section to paste',
    'BENCH_ONLY=soak npm run bench > soak.md          # only the soak (memory under 100,000 mixed requests per database), as a section to paste',
    'BENCH_ONLY=soak BENCH_SOAK_REQUESTS=10000 BENCH_DATABASES=sqlite npm run bench   # a short soak, about a minute',
    'BENCH_ONLY=client npm run bench > client.md      # a push through the TypeScript client against plain fetch, as a section to paste (BENCH_CLIENT_REQUESTS, 2000 per way)',
    'BENCH_ONLY=erasure npm run bench > erasure.md    # erasure and retention under push load, as a section to paste (about 10 minutes)',
    '```',
    '',
    'Settings: `BENCH_DURATION` (s, 10), `BENCH_WARMUP` (s, 2), `BENCH_CONNECTIONS` (50), `BENCH_MERGE_LEADS` (1000), ' +
      '`BENCH_SEED_LEADS` (1000000; 0 skips the stored-leads runs of (a) and (c) on SQLite), `BENCH_SEED_CONNECTIONS` (100), `BENCH_DATABASES` (sqlite,postgres), ' +
      '`BENCH_POSTGRES_URL`, `BENCH_PIN` (0 turns core pinning off), `BENCH_OUTPUT` (docs/benchmarks.md), ' +
      '`BENCH_ONLY` (`push`: scenarios (a) to (d), against `BENCH_BASELINE` when set, and their counted costs, printed as a section; `webhooks`: run only scenario (d) and print its section instead of writing the report; `soak`: only the soak, its section printed; `reference`: only the ' +
      'car, address and company databases, imports and reads at `BENCH_REFERENCE_SCALE` of full Belgian scale, into docs/benchmarks-reference.md), ' +
      '`BENCH_ERASURES` (5) and `BENCH_RETENTION_ROWS` (1000000): with `BENCH_ONLY=erasure`, the leads of 50 revisions and 100 pushes erased under load, ' +
      'and the expired push-log rows a retention pass removes under load; ' +
      "`BENCH_SOAK_REQUESTS` (100000) and `BENCH_SOAK_IDLE` (s, 15): the soak's mixed requests per database (sent at `BENCH_CONNECTIONS`) and the idle wait after them; " +
      '`BENCH_BASELINE` (a git revision since 70bfddd: each push scenario is also measured on the server of that revision, installed once under ' +
      '`BENCH_CACHE` (~/.cache/lead-intake-bench), the two taking turns), `BENCH_ROUNDS` (figures per code and scenario; 3 with a baseline, 1 without), ' +
      '`BENCH_SCENARIOS` (for `BENCH_ONLY=push`: a, b, c, d by default; also e, the merges of (c) with a new birth date instead of a new telephone number, which keep the search words; keyed, a minimal push with an Idempotency-Key; and batch, batches of 100), ' +
      '`BENCH_COUNT` (0: no counted pushes in `BENCH_ONLY=push`), ' +
      '`BENCH_QUIET_CPU` (25) and `BENCH_QUIET_WAIT` (s, 300): before each scenario, wait up to that long for the rest of the machine ' +
      'to use at most that share of one core; ' +
      "`BENCH_CPU_PROFILE` (a directory: instead of the report, run one scenario under `node --cpu-prof` and print where the server's time went; `BENCH_PROFILE_SCENARIO` minimal, full or merge, default minimal; `BENCH_PROFILE_DATABASE` sqlite or postgres, default sqlite; with `BENCH_BASELINE`, that revision's server is profiled first, the same way).",
    '',
  );
  return out.join('\n');
}

/**
 * Scenario (d). With `run` (BENCH_ONLY=webhooks) the section says which run it comes from,
 * since it is then pasted into a report generated by another run.
 */
export function renderWebhookSection(
  webhooks: readonly WebhookMeasurement[],
  run?: { options: BenchOptions; machine: Machine; startedAt: Date },
): string {
  const ms = (value: number | null) => (value === null ? 'n/a' : fmt(value, 0));
  const out = [
    '## Webhooks under push load (scenario d)',
    '',
    'Scenario (a), but every lead carries a callback URL to a local receiver (`bench/webhook-receiver.ts`, a process of its own ' +
      "on the generator's core that answers 204 at once), so each push also writes an outbox event and a delivery, and the " +
      'server\'s own worker (a worker thread of the server process, WEBHOOK_WORKER\'s default; 128 attempts at a time, 64 to one host) signs and POSTs them while it keeps taking pushes. "events/s" counts webhooks ' +
      'that arrived at the receiver during the measured window; "delay" is from the event\'s `created_at` to its arrival; "lag" is ' +
      'the `lead_intake_webhook_outbox_lag_seconds` gauge (how long the oldest due delivery has waited), sampled every 0.5 s; ' +
      '"drain" is the time from the end of the load until the receiver had every event.',
    ...(run
      ? [
          '',
          `_From a separate run: \`BENCH_ONLY=webhooks npm run bench\` on ${run.startedAt.toISOString()}, server code ${run.machine.revision}, ` +
            `${run.options.connections} connections, ${run.options.warmupSeconds} s warm-up + ${run.options.durationSeconds} s measured, ` +
            `pinning: ${run.options.pin ? 'server core 0, generator and receiver core 1' : 'none'}, load average at start ${run.machine.loadAverage}._`,
        ]
      : []),
    '',
    '| Database | pushes/s | p50 ms | p99 ms | events/s delivered | delay p50 ms | delay p99 ms | lag max s | lag at end s | drain s | server CPU | PostgreSQL CPU |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...webhooks.map((m) => {
      const l = m.load;
      const w = m.webhooks;
      return (
        `| ${m.database === 'sqlite' ? 'SQLite' : 'PostgreSQL'} | ${fmt(l.requestsPerSecond)} | ${fmt(l.p50Ms, 2)} | ${fmt(l.p99Ms, 2)} | ` +
        `${fmt(w.deliveredPerSecond)} | ${ms(w.delayP50Ms)} | ${ms(w.delayP99Ms)} | ${fmt(w.maxLagSeconds, 1)} | ${fmt(w.lagAtEndSeconds, 1)} | ` +
        `${w.drainSeconds === null ? 'not drained' : fmt(w.drainSeconds, 1)} | ${fmt(l.serverCpuPercent ?? NaN)}% | ${fmt(l.postgresCpuPercent)}% |`
      );
    }),
    '',
    'Pushes with a callback cost more than scenario (a) even before any delivery: each also writes the event (the lead as the API ' +
      "returns it), a delivery row and, for the push's listed callbacks, the 410 resume check, in the same transaction. While the " +
      "server's one core is saturated by pushes, the worker's thread shares that core with the requests: every delivery's CPU is " +
      'CPU the pushes do not get. Where the worker runs, and how that measured over 60 s, is in "Webhooks under sustained push load" ' +
      '(`BENCH_ONLY=webhook-sustain`).',
    '',
  ];
  return out.join('\n');
}
