// Where a pinned server's core goes, by thread: the main thread (requests), SQLite's
// checkpoint thread, the webhook delivery thread, libuv's pool, V8's helpers. A CPU profile
// samples the main thread by the wall clock, so a thread beside it on the same core shows
// there as slower statements; /proc/<pid>/task/<tid>/stat tells them apart.
//   BENCH_BASELINE=f955e96 node bench/thread-cpu.ts a c d keyed list    (sqlite; BENCH_DATABASES=postgres for the other;
//   d: with the webhook receiver, so the delivery thread shows;
//   list: the change listing's page of 100)
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { prepareBaseline } from './baseline.ts';
import { type BenchServer, withBenchDatabase, withServer } from './bench-server.ts';
import { type BenchOptions, readOptions } from './options.ts';
import type { LoadSpec } from './load.ts';
import { runLoad } from './processes.ts';
import { loadSpecFor, requestSpec } from './push-run.ts';
import { LISTING, PUSH_SCENARIOS, type PushScenario } from './push-scenarios.ts';
import { CURRENT_CODE, type ServerCode } from './server-code.ts';
import { withWebhookBenchServer } from './webhook-bench-server.ts';

const CLOCK_TICKS_PER_SECOND = 100;

/** CPU seconds per thread name (threads of one name summed: libuv's pool has four). */
function threadCpu(pid: number): Map<string, number> {
  const byName = new Map<string, number>();
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const seconds = (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
      byName.set(name, (byName.get(name) ?? 0) + seconds);
    } catch {
      // The thread ended while we looked.
    }
  }
  return byName;
}

async function measure(code: ServerCode, scenario: PushScenario): Promise<string> {
  const options = readOptions();
  const dialect = options.databases[0]!;
  const pinning = { enabled: options.pin };
  return withScenarioServer(options, code, scenario, async (server, extra) => {
    const before = threadCpu(server.pid);
    const started = process.hrtime.bigint();
    const load = await runLoad(
      loadSpecFor(server, scenario.scenario, options, { ...requestSpec(server, scenario.request), ...extra }),
      pinning,
    );
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const after = threadCpu(server.pid);
    // The load counts the measured window's answers; the CPU covers the warm-up too.
    const rate = load.requests / options.durationSeconds;
    const lines = [...after]
      .map(([name, cpu]) => [name, cpu - (before.get(name) ?? 0)] as const)
      .filter(([, cpu]) => cpu > 0)
      .sort((a, b) => b[1] - a[1])
      .map(
        ([name, cpu]) =>
          `    ${name.padEnd(16)} ${((cpu / seconds) * 100).toFixed(0).padStart(4)}% of a core, ${((cpu / (rate * seconds)) * 1e6).toFixed(0).padStart(5)} µs per request`,
      );
    return [`${dialect} ${scenario.label} at ${code.label}: ${rate.toFixed(0)} req/s`, ...lines].join('\n');
  });
}

/**
 * A fresh database and server for `scenario`; for (d) with the webhook receiver beside it
 * (bench/webhook-bench-server.ts), whose callback URL the pushes carry, so the server's
 * delivery thread works as it does in the report's (d).
 */
function withScenarioServer<T>(
  options: BenchOptions,
  code: ServerCode,
  scenario: PushScenario,
  use: (server: BenchServer, extra: Partial<LoadSpec>) => Promise<T>,
): Promise<T> {
  const database = { engine: options.databases[0]!, postgresUrl: options.postgresUrl, code };
  const server = { pinning: { enabled: options.pin }, ...serverExtras() };
  if (scenario.scenario === 'webhook')
    return withWebhookBenchServer({ ...database, ...server }, (bench, receiver) =>
      use(bench, { callbackUrl: receiver.callbackUrl }),
    );
  return withBenchDatabase(database, (db) => withServer(db, code, server, (bench) => use(bench, {})));
}

/**
 * What each server runs with besides: BENCH_STATEMENT_TIMES, a file (%p: the pid) each one's
 * statements are timed into (bench/sqlite-statement-timer.ts); BENCH_NODE_OPTIONS, V8 or Node
 * flags to try on both codes alike (a larger young generation, say).
 */
function serverExtras(): { env: Record<string, string>; nodeArgs: string[] } {
  const file = process.env.BENCH_STATEMENT_TIMES;
  const nodeOptions = process.env.BENCH_NODE_OPTIONS;
  const timer = fileURLToPath(new URL('./sqlite-statement-timer.ts', import.meta.url));
  return {
    env: { ...(file && { BENCH_STATEMENT_TIMES: file }), ...(nodeOptions && { NODE_OPTIONS: nodeOptions }) },
    nodeArgs: file ? ['--import', timer] : [],
  };
}

const scenarios = (process.argv.slice(2).length ? process.argv.slice(2) : ['a']).map((key) => {
  const scenario = [...PUSH_SCENARIOS, LISTING].find((s) => s.key === key);
  if (scenario === undefined)
    throw new Error(`no scenario ${key}: ${[...PUSH_SCENARIOS, LISTING].map((s) => s.key).join(', ')}`);
  return scenario;
});
const baseline = process.env.BENCH_BASELINE ? prepareBaseline(process.env.BENCH_BASELINE) : undefined;
for (const scenario of scenarios) {
  if (baseline) console.log(await measure(baseline, scenario));
  console.log(await measure(CURRENT_CODE, scenario));
}
