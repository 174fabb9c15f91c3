// Scenario (d) sustained (BENCH_ONLY=webhook-sustain): pushes with a callback for
// BENCH_WEBHOOK_SUSTAIN seconds (60), the webhook worker placed as BENCH_WEBHOOK_WORKERS
// says, and every 10 s the delivery delay of that window (p50, p99: the event's created_at
// to its arrival at the receiver) and the outbox lag at the window's end, as undelivered
// events (leads pushed minus events arrived: every push of (d) makes a new lead with one
// callback, so one event). A lag that grows window after window is a worker falling behind;
// a flat one keeps up. `off` (no worker anywhere) is the pushes alone, which the others'
// push rate is compared with.
import os from 'node:os';
import path from 'node:path';
import type { BenchDialect } from './database.ts';
import { describeMachine, type Machine } from './machine.ts';
import { log, requireAllSucceeded, waitForQuiet } from './measure.ts';
import type { BenchOptions, Placement } from './options.ts';
import { processCpuSeconds } from './procfs.ts';
import { type Pinning, ROOT, runLoad, SERVER_ENV } from './processes.ts';
import { loadSpecFor } from './push-run.ts';
import { spawnNode } from '../test/support/server-process.ts';
import { withWebhookBenchServer } from './webhook-bench-server.ts';

const WINDOW_MS = 10_000;
const MAX_DRAIN_MS = 120_000;

const SERVER_SETTING: Readonly<Record<Placement, string>> = {
  off: 'false',
  main: 'main',
  thread: 'thread',
  process: 'false',
};

interface WindowFigures {
  readonly endSeconds: number;
  readonly pushesPerSecond: number;
  readonly deliveredPerSecond: number;
  readonly delayP50Ms: number | null;
  readonly delayP99Ms: number | null;
  /** Leads pushed minus events arrived, at the window's end. */
  readonly undelivered: number;
}

export interface SustainRun {
  readonly dialect: BenchDialect;
  readonly placement: Placement;
  readonly pushesPerSecond: number;
  readonly pushP99Ms: number;
  readonly serverCpuPercent: number | null;
  /** The `process` placement's delivery process, as a share of one core. */
  readonly workerCpuPercent: number | null;
  readonly windows: readonly WindowFigures[];
  readonly wholeDelayP50Ms: number | null;
  readonly wholeDelayP99Ms: number | null;
  readonly drainSeconds: number | null;
}

export async function sustainBenchmark(
  options: BenchOptions,
  pinning: Pinning,
  seconds: number,
  placements: readonly Placement[],
): Promise<void> {
  const startedAt = new Date();
  const machine = await describeMachine(options);
  const runs: SustainRun[] = [];
  for (const dialect of options.databases)
    for (const placement of placements) {
      await waitForQuiet(`${dialect} (d) sustained, worker ${placement}`, options);
      runs.push(await sustainOnce(dialect, placement, seconds, options, pinning));
    }
  process.stdout.write(render(runs, { seconds, machine, startedAt, options }));
}

async function sustainOnce(
  dialect: BenchDialect,
  placement: Placement,
  seconds: number,
  options: BenchOptions,
  pinning: Pinning,
): Promise<SustainRun> {
  return withWebhookBenchServer(
    {
      engine: dialect,
      postgresUrl: options.postgresUrl,
      pinning,
      env: { WEBHOOK_WORKER: SERVER_SETTING[placement] },
      // The process placement profiles its worker process; the others the server, one profile per thread.
      ...(placement !== 'process' && { nodeArgs: profileArgs() }),
    },
    async (server, receiver) => {
      const worker =
        placement === 'process'
          ? spawnNode([...profileArgs(), path.join(ROOT, 'bin/lead-intake.js'), 'webhook', 'work'], {
              cwd: ROOT,
              env: {
                ...process.env,
                ...SERVER_ENV,
                ...server.database.env,
                WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
              },
              ...(pinning.enabled && { core: 0 }),
            })
          : undefined;
      try {
        const windows: WindowFigures[] = [];
        const loadStarted = Date.now();
        const windowsStart = loadStarted + options.warmupSeconds * 1000;
        let workerCpuStart: number | null = null;
        const sampling = (async () => {
          let previousLeads = 0;
          await sleepUntil(windowsStart);
          if (worker?.pid) workerCpuStart = processCpuSeconds(worker.pid);
          previousLeads = await server.database.countLeads();
          for (let end = windowsStart + WINDOW_MS; end <= windowsStart + seconds * 1000; end += WINDOW_MS) {
            await sleepUntil(end);
            // Arrivals first, then leads: an event arrives only after its lead committed, so undelivered >= 0.
            const window = await receiver.stats(end - WINDOW_MS, end);
            const leads = await server.database.countLeads();
            windows.push({
              endSeconds: (end - windowsStart) / 1000,
              pushesPerSecond: (leads - previousLeads) / (WINDOW_MS / 1000),
              deliveredPerSecond: window.inWindow / (WINDOW_MS / 1000),
              delayP50Ms: window.delayP50Ms,
              delayP99Ms: window.delayP99Ms,
              undelivered: placement === 'off' ? leads : leads - window.total,
            });
            previousLeads = leads;
            const last = windows.at(-1)!;
            log(
              `  ${dialect} ${placement} ${last.endSeconds} s: ${last.pushesPerSecond.toFixed(0)} pushes/s, ` +
                `${last.deliveredPerSecond.toFixed(0)} delivered/s, delay p50 ${last.delayP50Ms} p99 ${last.delayP99Ms} ms, undelivered ${last.undelivered}`,
            );
          }
        })();
        const load = await runLoad(
          loadSpecFor(server, 'webhook', options, { callbackUrl: receiver.callbackUrl, durationSeconds: seconds }),
          pinning,
        );
        const loadEnded = Date.now();
        await sampling;
        const workerCpuEnd = worker?.pid ? processCpuSeconds(worker.pid) : null;
        requireAllSucceeded(`(d) sustained, worker ${placement}`, load, server.process);
        const whole = await receiver.stats(windowsStart, loadEnded);
        const drainSeconds =
          placement === 'off'
            ? null
            : await receiver.drainSeconds(await server.database.countLeads(), loadEnded, MAX_DRAIN_MS);
        const run: SustainRun = {
          dialect,
          placement,
          pushesPerSecond: load.requestsPerSecond,
          pushP99Ms: load.p99Ms,
          serverCpuPercent: load.serverCpuPercent,
          workerCpuPercent:
            workerCpuStart !== null && workerCpuEnd !== null
              ? ((workerCpuEnd - workerCpuStart) / load.durationSeconds) * 100
              : null,
          windows,
          wholeDelayP50Ms: whole.delayP50Ms,
          wholeDelayP99Ms: whole.delayP99Ms,
          drainSeconds,
        };
        log(
          `${dialect} (d) sustained ${seconds} s, worker ${placement}: ${run.pushesPerSecond.toFixed(0)} pushes/s, ` +
            `delay p50 ${run.wholeDelayP50Ms} p99 ${run.wholeDelayP99Ms} ms, drained ${drainSeconds ?? 'n/a'} s`,
        );
        return run;
      } finally {
        if (worker && worker.exitCode === null) {
          worker.kill('SIGTERM');
          await new Promise((resolve) => worker.once('close', resolve));
        }
      }
    },
  );
}

/**
 * BENCH_WEBHOOK_PROFILE=<dir>: under `node --cpu-prof`, profiles written there: the `process`
 * placement's worker process, and for the others the server (a profile per thread, the
 * delivery thread's among them).
 */
const profileArgs = (): string[] => {
  const dir = process.env.BENCH_WEBHOOK_PROFILE?.trim();
  return dir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(dir)}`] : [];
};

const sleepUntil = (at: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())));

function render(
  runs: readonly SustainRun[],
  run: { seconds: number; machine: Machine; startedAt: Date; options: BenchOptions },
): string {
  const n = (value: number | null, digits = 0) =>
    value === null
      ? 'n/a'
      : value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
  const out = [
    `## Webhooks under sustained push load (scenario d, ${run.seconds} s)`,
    '',
    `\`BENCH_ONLY=webhook-sustain npm run bench\`, ${run.startedAt.toISOString()}, server code ${run.machine.revision}, ` +
      `${run.machine.cores} cores (${run.machine.cpu}), load average ${run.machine.loadAverage} at the start and ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')} at the end, ` +
      `${run.options.connections} connections, ${run.options.warmupSeconds} s warm-up, then ${run.seconds} s in windows of ${WINDOW_MS / 1000} s. ` +
      'Per window: pushes/s (leads counted in the database), events/s that arrived at the receiver, the delivery delay ' +
      "(event `created_at` to arrival) of those, and at the window's end the events not yet delivered (leads pushed minus events arrived). " +
      "Worker: `off` none (the pushes alone), `main` on the server's event loop, `thread` a worker thread of the server, " +
      "`process` a `lead-intake webhook work` process on the server's core.",
    '',
    '| Database | worker | pushes/s | vs off | push p99 ms | server CPU | worker process CPU | delay p50 ms | delay p99 ms | undelivered at each 10 s | drain s |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---|---:|',
  ];
  for (const r of runs) {
    const off = runs.find((o) => o.dialect === r.dialect && o.placement === 'off');
    out.push(
      `| ${r.dialect} | ${r.placement} | ${n(r.pushesPerSecond)} | ${off ? `${(r.pushesPerSecond / off.pushesPerSecond).toFixed(2)}x` : 'n/a'} | ` +
        `${n(r.pushP99Ms, 1)} | ${r.serverCpuPercent === null ? 'n/a' : `${n(r.serverCpuPercent)}%`} | ` +
        `${r.workerCpuPercent === null ? '' : `${n(r.workerCpuPercent)}%`} | ` +
        `${r.placement === 'off' ? '' : n(r.wholeDelayP50Ms)} | ${r.placement === 'off' ? '' : n(r.wholeDelayP99Ms)} | ` +
        `${r.placement === 'off' ? '' : r.windows.map((w) => n(w.undelivered)).join(', ')} | ${r.placement === 'off' ? '' : n(r.drainSeconds, 1)} |`,
    );
  }
  out.push('', 'Per window (delay p50 / p99 ms):', '', '| Database | worker | ' + windowsHeader(runs) + ' |');
  out.push(`|---|---|${runs[0]?.windows.map(() => '---:|').join('') ?? ''}`);
  for (const r of runs.filter((r) => r.placement !== 'off'))
    out.push(
      `| ${r.dialect} | ${r.placement} | ${r.windows.map((w) => `${n(w.delayP50Ms)} / ${n(w.delayP99Ms)}`).join(' | ')} |`,
    );
  return `${out.join('\n')}\n`;
}

const windowsHeader = (runs: readonly SustainRun[]) =>
  (runs[0]?.windows ?? []).map((w) => `${w.endSeconds - WINDOW_MS / 1000}-${w.endSeconds} s`).join(' | ');
