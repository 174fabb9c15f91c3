// BENCH_ONLY=push: scenarios (a) to (d) on each database, on this checkout and, with
// BENCH_BASELINE=<revision>, on that revision too, interleaved (bench/interleave.ts); then,
// unless BENCH_COUNT=0, what a push costs, counted on both (bench/push-cost.ts). Prints a
// markdown section for docs/benchmarks.md:
//   BENCH_BASELINE=f955e96 BENCH_ONLY=push npm run bench > push.md
import fs from 'node:fs';
import { prepareBaseline } from './baseline.ts';
import { type CodeFigures, interleave, median, type ScenarioRounds } from './interleave.ts';
import { describeMachine, type Machine } from './machine.ts';
import { log } from './measure.ts';
import type { BenchOptions } from './options.ts';
import type { Pinning } from './processes.ts';
import { countPushCosts, PUSHES, type PushCost, renderPushCosts, WARM_UP } from './push-cost.ts';
import { leadsPerRequest, PUSH_SCENARIOS } from './push-scenarios.ts';
import { CURRENT_CODE, type ServerCode } from './server-code.ts';
import type { WebhookMeasurement } from './webhooks.ts';

const fmt = (value: number, digits = 0) =>
  Number.isFinite(value)
    ? value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })
    : 'n/a';

/** The server's CPU per request answered, in µs: steadier than req/s when the server does not get a whole core. */
const cpuMicros = (m: CodeFigures['samples'][number]) =>
  m.load.serverCpuPercent === null ? NaN : (m.load.serverCpuPercent / 100) * (1e6 / m.load.requestsPerSecond);

function medianOf(figures: CodeFigures | undefined, pick: (m: CodeFigures['samples'][number]) => number): number {
  return figures ? median(figures.samples.map(pick)) : NaN;
}

/** `median (round 1, round 2, ...)`, or why there is none. */
function cell(figures: CodeFigures | undefined, pick: (m: CodeFigures['samples'][number]) => number): string {
  if (!figures) return 'n/a';
  if (figures.samples.length === 0) return 'no figure (below)';
  const all = figures.samples.map(pick);
  return all.length === 1 ? fmt(all[0]!) : `**${fmt(median(all))}** (${all.map((v) => fmt(v)).join(', ')})`;
}

/** A batch's rate is of batches: its row says so. */
const labelOf = (r: ScenarioRounds) => `${r.scenario.label}${leadsPerRequest(r.scenario) > 1 ? ', batches/s' : ''}`;

export function renderRoundsTable(rounds: readonly ScenarioRounds[], codes: readonly ServerCode[]): string {
  const [before, after] = codes.length > 1 ? [codes[0]!, codes[1]!] : [undefined, codes[0]!];
  const of = (r: ScenarioRounds, code: ServerCode | undefined) => r.codes.find((f) => f.code === code);
  const ratio = (r: ScenarioRounds, pick: (m: CodeFigures['samples'][number]) => number) => {
    const value = medianOf(of(r, after), pick) / medianOf(of(r, before), pick);
    return Number.isFinite(value) ? `${fmt(value, 2)}x` : 'n/a';
  };
  const rate = (m: CodeFigures['samples'][number]) => m.load.requestsPerSecond;
  const p99 = (m: CodeFigures['samples'][number]) => m.load.p99Ms;
  if (!before) {
    return [
      '| Database | Scenario | req/s, median (each round) | p99 ms | server CPU µs per request |',
      '|---|---|---:|---:|---:|',
      ...rounds.map(
        (r) =>
          `| ${r.dialect} | ${labelOf(r)} | ${cell(of(r, after), rate)} | ${fmt(medianOf(of(r, after), p99), 1)} | ${fmt(medianOf(of(r, after), cpuMicros))} |`,
      ),
      '',
    ].join('\n');
  }
  return [
    `| Database | Scenario | req/s at ${before.label}, median (each round) | req/s at ${after.label} | ratio | p99 ms, ${before.label} / ${after.label} | server CPU µs per request, ${before.label} / ${after.label} | ratio |`,
    '|---|---|---:|---:|---:|---:|---:|---:|',
    ...rounds.map(
      (r) =>
        `| ${r.dialect} | ${labelOf(r)} | ${cell(of(r, before), rate)} | ${cell(of(r, after), rate)} | ${ratio(r, rate)} | ` +
        `${fmt(medianOf(of(r, before), p99), 1)} / ${fmt(medianOf(of(r, after), p99), 1)} | ` +
        `${fmt(medianOf(of(r, before), cpuMicros))} / ${fmt(medianOf(of(r, after), cpuMicros))} | ${ratio(r, cpuMicros)} |`,
    ),
    '',
  ].join('\n');
}

/** Scenario (d)'s delivery, medians of the rounds. */
function renderDelivery(rounds: readonly ScenarioRounds[]): string {
  const rows = rounds
    .filter((r) => r.scenario.scenario === 'webhook')
    .flatMap((r) =>
      r.codes
        .filter((f) => f.samples.length > 0)
        .map((f) => {
          const hooks = (pick: (w: WebhookMeasurement['webhooks']) => number | null) =>
            median(f.samples.map((m) => pick((m as WebhookMeasurement).webhooks) ?? NaN));
          return (
            `| ${r.dialect} | ${f.code.label} | ${fmt(medianOf(f, (m) => m.load.requestsPerSecond))} | ${fmt(hooks((w) => w.deliveredPerSecond))} | ` +
            `${fmt(hooks((w) => w.delayP50Ms))} | ${fmt(hooks((w) => w.delayP99Ms))} | ${fmt(
              hooks((w) => w.drainSeconds),
              1,
            )} |`
          );
        }),
    );
  if (rows.length === 0) return '';
  return [
    '| Database | code | pushes/s | webhooks delivered/s | delivery delay p50 ms | p99 ms | drained after the load, s |',
    '|---|---|---:|---:|---:|---:|---:|',
    ...rows,
    '',
  ].join('\n');
}

function loadAverage(): string {
  return fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
}

interface Context {
  readonly options: BenchOptions;
  readonly machine: Machine;
  readonly startedAt: Date;
  readonly loadAtEnd: string;
  readonly codes: readonly ServerCode[];
}

/** The rounds' table, what had no figure and why, (d)'s delivery and the counted costs. */
export function renderRoundsAndCosts(
  rounds: readonly ScenarioRounds[],
  costs: readonly PushCost[],
  codes: readonly ServerCode[],
): string {
  const skipped = rounds.flatMap((r) =>
    r.codes.filter((f) => f.missing).map((f) => `- ${r.dialect} ${r.scenario.label} at ${f.code.label}: ${f.missing}`),
  );
  const delivery = renderDelivery(rounds);
  return [
    renderRoundsTable(rounds, codes).trimEnd(),
    ...(skipped.length > 0 ? ['', 'No figure:', '', ...skipped] : []),
    ...(delivery ? ['', '(d), webhooks delivered while the pushes ran:', '', delivery.trimEnd()] : []),
    ...(costs.length > 0
      ? [
          '',
          '### What a push costs, counted',
          '',
          `${WARM_UP + PUSHES} pushes one at a time per scenario on a fresh server and database, the last ${PUSHES} counted ` +
            "(bench/push-cost.ts), the webhook worker off. Statements: on SQLite the server's calls into node:sqlite, counted " +
            'by a module loaded into it, on PostgreSQL the wire (queries and executes), as are the round trips. Rows written: on PostgreSQL ' +
            "inserted + updated + deleted (the table statistics, triggers' rows included), on SQLite rows added to all " +
            "tables (the word index's own tables included; an update adds none). WAL bytes: frames appended to the SQLite " +
            'WAL, their headers included. CPU: the server process (all its threads) and every PostgreSQL process over the ' +
            'counted pushes (procfs, 10 ms ticks), per push; what the server does after a commit (the inbox projector) counts too.',
          '',
          renderPushCosts(costs).trimEnd(),
        ]
      : []),
    '',
  ].join('\n');
}

function renderComparison(rounds: readonly ScenarioRounds[], costs: readonly PushCost[], context: Context): string {
  const { options, machine, startedAt, loadAtEnd, codes } = context;
  const baseline = codes.length > 1 ? codes[0] : undefined;
  return [
    baseline ? `## Pushes against ${baseline.label}, interleaved` : '## Pushes',
    '',
    `\`${baseline ? `BENCH_BASELINE=${baseline.label} ` : ''}BENCH_ONLY=push npm run bench\`, ${startedAt.toISOString()}, ` +
      `this checkout at ${machine.revision}, ${machine.cores} cores (${machine.cpu}), Node.js ${machine.node}, ` +
      `load average ${machine.loadAverage} at the start and ${loadAtEnd} at the end; pinning: ${options.pin ? 'server core 0, generator core 1' : 'none'}. ` +
      `${options.rounds} round${options.rounds > 1 ? 's' : ''} of ${options.warmupSeconds} s warm-up + ${options.durationSeconds} s at ` +
      `${options.connections} connections per figure${baseline ? `, ${baseline.label} and this checkout taking turns` : ''}; ` +
      'a fresh database and server per figure, each migrated by its own code. Medians in bold, each round in brackets.',
    '',
    renderRoundsAndCosts(rounds, costs, codes),
  ].join('\n');
}

export async function pushComparison(options: BenchOptions, pinning: Pinning): Promise<void> {
  const startedAt = new Date();
  const machine = await describeMachine(options);
  const codes = options.baseline === undefined ? [CURRENT_CODE] : [prepareBaseline(options.baseline), CURRENT_CODE];
  const scenarios = PUSH_SCENARIOS.filter((s) => options.scenarios.some((key) => key === s.key));
  const rounds: ScenarioRounds[] = [];
  for (const dialect of options.databases)
    for (const scenario of scenarios) rounds.push(await interleave(dialect, scenario, codes, options, pinning));
  log('counting what a push costs');
  const costs = options.count ? await countPushCosts(codes, options.databases, scenarios, options.postgresUrl) : [];
  process.stdout.write(
    renderComparison(rounds, costs, { options, machine, startedAt, loadAtEnd: loadAverage(), codes }),
  );
}
