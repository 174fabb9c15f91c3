// BENCH_ONLY=features: what each feature added since f955e96 costs a push, counted on the
// revision that brought it and on the revisions around it (bench/push-cost.ts: statements,
// round trips, rows, WAL bytes, server and PostgreSQL CPU, pushes one at a time). Each row's
// difference from the row above is what landed between the two revisions: the feature it
// names and whatever else landed with it. Prints a markdown section for docs/benchmarks.md:
//   BENCH_ONLY=features BENCH_COUNT_PUSHES=200 npm run bench > features.md
import { prepareBaseline } from './baseline.ts';
import { describeMachine } from './machine.ts';
import type { BenchOptions } from './options.ts';
import { countPushCost, PUSHES, type PushCost, WARM_UP } from './push-cost.ts';
import { PUSH_SCENARIOS } from './push-scenarios.ts';
import { CURRENT_CODE, type ServerCode } from './server-code.ts';

/** The revisions in order, each with what it added to a push (git log of src/db/migrations and the push's files). */
const STEPS: ReadonlyArray<{ readonly revision: string | undefined; readonly added: string }> = [
  { revision: 'f955e96', added: 'before the features' },
  {
    revision: '11a4c4f',
    added: "the broker's work: status columns and inbox indexes, change log, word index and status counts by triggers",
  },
  { revision: 'c9d4676', added: 'Idempotency-Key (a plain push reads nothing of it)' },
  { revision: '4f447dc', added: 'erasure: the erased-ref check (HMAC of each ref, the tombstone lookup)' },
  { revision: '9c25e71', added: 'external refs found without their company (an index)' },
  { revision: 'bbc047f', added: "the word index's plain deletes again" },
  { revision: '8e75bf9', added: 'everything up to the issue that measured it' },
  { revision: undefined, added: 'this checkout: the inbox projector, the lookup asking the tombstones' },
];

/** BENCH_ONLY=features: the section alone, printed. */
export async function featureCostsBenchmark(options: BenchOptions): Promise<void> {
  process.stdout.write(await featureCostsSection(options));
}

/** The section of docs/benchmarks.md: every revision of STEPS counted on each database, (a) and (c). */
export async function featureCostsSection(options: BenchOptions): Promise<string> {
  const startedAt = new Date();
  const machine = await describeMachine(options);
  // A revision that cannot be installed or counted is a row saying so, not a lost report.
  const failures = new Map<number, string>();
  const codes = STEPS.map((step, i): ServerCode | undefined => {
    if (step.revision === undefined) return CURRENT_CODE;
    try {
      return prepareBaseline(step.revision);
    } catch (error) {
      failures.set(i, String(error).split('\n')[0]!);
      return undefined;
    }
  });
  const scenarios = PUSH_SCENARIOS.filter((s) => s.key === 'a' || s.key === 'c');
  const costs: Array<PushCost | undefined> = [];
  const at = (dialect: string, scenario: unknown, i: number) =>
    costs[
      (options.databases.indexOf(dialect as never) * scenarios.length + scenarios.indexOf(scenario as never)) *
        STEPS.length +
        i
    ];
  for (const dialect of options.databases)
    for (const scenario of scenarios)
      for (const [i, code] of codes.entries()) {
        let cost: PushCost | undefined;
        if (code !== undefined)
          try {
            cost = await countPushCost(code, dialect, scenario, options.postgresUrl);
          } catch (error) {
            failures.set(i, String(error).split('\n')[0]!);
          }
        costs.push(cost);
      }
  const cell = (value: number | null, digits = 0) =>
    value === null ? 'n/a' : value.toLocaleString('en-US', { maximumFractionDigits: digits });
  const delta = (value: number | null, before: number | null, digits = 0) =>
    value === null || before === null
      ? ''
      : ` (${value - before >= 0 ? '+' : ''}${(value - before).toLocaleString('en-US', { maximumFractionDigits: digits })})`;
  const lines = [
    '## What each feature costs a push',
    '',
    `Counted on the revision that brought each feature, in order, ${WARM_UP + PUSHES} pushes one at a time per ` +
      `scenario on a fresh server and database, the last ${PUSHES} counted (bench/feature-costs.ts over ` +
      'bench/push-cost.ts; `BENCH_ONLY=features`). In brackets, the difference from the row above: what landed between ' +
      'the two revisions, the feature named and whatever else came with it. CPU is what the server process (and every ' +
      "PostgreSQL process) used over the counted pushes, per push; one at a time it is each push's own work, not how " +
      `well it overlaps others, and on a shared machine it still moves by some 10%. Run ${startedAt.toISOString()}, ` +
      `load average at start ${machine.loadAverage ?? 'n/a'}.`,
    '',
  ];
  for (const dialect of options.databases)
    for (const scenario of scenarios) {
      lines.push(
        `${dialect}, ${scenario.label}:`,
        '',
        '| revision | what it added | statements | round trips | rows written | WAL bytes | server CPU µs | PostgreSQL CPU µs |',
        '|---|---|---:|---:|---:|---:|---:|---:|',
      );
      STEPS.forEach((step, i) => {
        const c = at(dialect, scenario, i);
        const p = i === 0 ? undefined : at(dialect, scenario, i - 1);
        if (c === undefined) {
          lines.push(
            `| ${step.revision ?? 'this checkout'} | ${step.added} | not counted: ${failures.get(i) ?? 'n/a'} | | | | | |`,
          );
          return;
        }
        const d = (pick: (x: PushCost) => number | null, digits = 0) =>
          p === undefined ? '' : delta(pick(c), pick(p), digits);
        lines.push(
          `| ${c.code} | ${step.added} | ${cell(c.statements, 1)}${d((x) => x.statements, 1)} | ${cell(c.roundTrips, 1)}${d((x) => x.roundTrips, 1)} | ` +
            `${cell(c.rows, 1)}${d((x) => x.rows, 1)} | ${cell(c.walBytes)}${d((x) => x.walBytes)} | ` +
            `${cell(c.serverCpuMicros)}${d((x) => x.serverCpuMicros)} | ${cell(c.postgresCpuMicros)}${d((x) => x.postgresCpuMicros)} |`,
        );
      });
      lines.push('');
    }
  return `${lines.join('\n')}\n`;
}
