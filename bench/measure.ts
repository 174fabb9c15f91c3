// How one figure is taken: every answer must be 2xx, the server must live through the
// run, and the rest of the machine must stay out of the way (it may be shared).
import type { BenchDialect } from './database.ts';
import type { LoadResult } from './load.ts';
import type { BenchOptions } from './options.ts';
import type { Scenario } from './payloads.ts';
import { sampleMachineCpuPercent } from './procfs.ts';
import type { ServerProcess } from './processes.ts';

export interface Measurement {
  readonly label: string;
  readonly database: BenchDialect | null;
  readonly scenario: Scenario;
  readonly load: LoadResult;
  readonly peakRssMiB: number;
  /** Leads in the database when the measured server started, and when it stopped. */
  readonly storedLeads?: number;
  readonly storedLeadsAfter?: number;
  /** Measured on the server of this git revision (BENCH_BASELINE), not the current code. */
  readonly baseline?: string;
}

/** CPU used during the window by none of server, PostgreSQL and generator: interference. */
export function otherCpuPercent(l: LoadResult): number {
  if (l.machineCpuPercent === null || l.serverCpuPercent === null) return NaN;
  return Math.max(0, l.machineCpuPercent - l.serverCpuPercent - l.postgresCpuPercent - l.generatorCpuPercent);
}

export function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

/** Something outside the benchmark ended the server (a signal from another process). */
class ServerGoneError extends Error {}

/** A benchmark with a failed request measures the wrong thing: stop at once. */
export function requireAllSucceeded(label: string, load: LoadResult, server: ServerProcess): void {
  const exit = server.exitStatus();
  if (exit !== null) throw new ServerGoneError(`${label}: the server ${exit} during the run:\n${server.output()}`);
  if (load.non2xx === 0 && load.errors === 0) return;
  throw new Error(
    `${label}: ${load.non2xx} non-2xx answers and ${load.errors} connection errors/timeouts ` +
      `(status codes ${JSON.stringify(load.statusCodes)}); first failure: ${load.firstFailure ?? 'none'}\n` +
      `server output:\n${server.output()}`,
  );
}

/**
 * The machine may be shared: wait (bounded) until the other processes leave the cores
 * idle, so a figure measures the server rather than its neighbours.
 */
export async function waitForQuiet(label: string, options: BenchOptions): Promise<void> {
  const deadline = Date.now() + options.quietWaitSeconds * 1000;
  for (;;) {
    const busy = await sampleMachineCpuPercent(1000);
    if (busy === null || busy <= options.quietCpuPercent) return;
    if (Date.now() > deadline) {
      log(`${label}: machine still ${busy.toFixed(0)}% busy after ${options.quietWaitSeconds} s; measuring anyway`);
      return;
    }
    log(`${label}: machine ${busy.toFixed(0)}% busy with other work; waiting`);
    await new Promise((resolve) => setTimeout(resolve, 4000));
  }
}

const MAX_ATTEMPTS = 3;

/**
 * Runs a measurement. Runs it again (up to MAX_ATTEMPTS, keeping the least disturbed)
 * when other work took more than BENCH_QUIET_CPU of the machine during the window, or
 * once more when another process killed the server under it.
 */
export async function measure(
  label: string,
  options: BenchOptions,
  attempt: () => Promise<Measurement>,
): Promise<Measurement> {
  let best: Measurement | undefined;
  let serverGone = 0;
  for (let tries = 1; tries <= MAX_ATTEMPTS; tries++) {
    await waitForQuiet(label, options);
    let m: Measurement;
    try {
      m = await attempt();
    } catch (error) {
      if (!(error instanceof ServerGoneError) || ++serverGone >= 2) throw error;
      log(`${error.message.split('\n')[0]}; running it again`);
      continue;
    }
    const { load } = m;
    const other = otherCpuPercent(load);
    log(
      `${label}: ${load.requestsPerSecond.toFixed(0)} req/s, p50 ${load.p50Ms.toFixed(2)} ms, p99 ${load.p99Ms.toFixed(2)} ms, ` +
        `CPU server ${load.serverCpuPercent?.toFixed(0)}% postgres ${load.postgresCpuPercent.toFixed(0)}% ` +
        `generator ${load.generatorCpuPercent.toFixed(0)}% other ${other.toFixed(0)}%, peak RSS ${m.peakRssMiB.toFixed(0)} MiB`,
    );
    if (best === undefined || other < otherCpuPercent(best.load)) best = m;
    if (!(other > options.quietCpuPercent)) break;
    if (tries < MAX_ATTEMPTS)
      log(`${label}: other work used ${other.toFixed(0)}% of a core meanwhile; measuring again`);
  }
  if (best === undefined) throw new Error(`${label}: no measurement completed`);
  return best;
}
