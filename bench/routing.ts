// BENCH_ONLY=routing: what round-robin routing costs a push of a new lead, rules on against
// rules off in the same run (docs/design.md, "Routing new leads"). On each database, this
// checkout's server on a fresh database whose distribution routes every new lead
// round-robin over three users, and on one without rules, measured in turn, round after
// round (BENCH_ROUNDS, at least 3), scenario (a) (every push a new lead) at
// BENCH_CONNECTIONS; the report quotes each one's median pushes a second and p99, and
// their ratio. The figure that moved with the turns' sequence: rules on PostgreSQL.
import { describeMachine } from './machine.ts';
import type { Measurement } from './measure.ts';
import type { BenchOptions } from './options.ts';
import type { Pinning } from './processes.ts';
import { measureLeads } from './push-run.ts';
import { currentCode } from './server-code.ts';

export async function routingBenchmark(options: BenchOptions, pinning: Pinning): Promise<void> {
  const startedAt = new Date();
  const machine = await describeMachine(options);
  const rows: string[] = [];
  for (const dialect of options.databases) {
    const figures = { off: [] as Measurement[], on: [] as Measurement[] };
    for (let round = 0; round < Math.max(3, options.rounds); round++)
      for (const routing of ['off', 'on'] as const)
        figures[routing].push(
          await measureLeads(
            { label: `rules ${routing}`, dialect, scenario: 'minimal', code: currentCode(routing === 'on') },
            options,
            pinning,
          ),
        );
    const rate = (m: Measurement) => m.load.requestsPerSecond;
    const [off, on] = [median(figures.off.map(rate)), median(figures.on.map(rate))];
    const p99 = (list: Measurement[]) => median(list.map((m) => m.load.p99Ms)).toFixed(1);
    const perRound = figures.on.map((m, i) => (rate(m) / rate(figures.off[i]!)).toFixed(2)).join(', ');
    rows.push(
      `| ${dialect} | ${off.toFixed(0)} | ${p99(figures.off)} | ${on.toFixed(0)} | ${p99(figures.on)} | ${(on / off).toFixed(2)} (${perRound}) |`,
    );
  }
  process.stdout.write(
    [
      `### Round-robin routing, rules on against off (BENCH_ONLY=routing, ${startedAt.toISOString()})`,
      '',
      `Scenario (a), every push a new lead, ${options.connections} connections, ${options.warmupSeconds} s warm-up, ${options.durationSeconds} s measured, rules off and on in turn, ${Math.max(3, options.rounds)} rounds, medians. Machine: ${JSON.stringify(machine).slice(0, 300)}`,
      '',
      '| Database | pushes/s, no rules | p99 ms | pushes/s, round-robin | p99 ms | on / off (per round) |',
      '|---|---:|---:|---:|---:|---|',
      ...rows,
      '',
    ].join('\n'),
  );
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
