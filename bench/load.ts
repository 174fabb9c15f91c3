// The load generator: a process of its own (run.ts starts it, pinned to the other core),
// so autocannon never shares the server's event loop or CPU. Reads a LoadSpec as JSON
// from argv[2]; prints one LoadResult as JSON on stdout.
import autocannon, { type AutocannonResult } from 'autocannon';
import { machineBusySeconds, postgresPids, processCpuSeconds, totalCpuSeconds } from './procfs.ts';
import { fullBodies, mergeBodies, mergeTargetBodies, minimalBodies, type BodyFactory, type Scenario } from './payloads.ts';

export interface LoadSpec {
  readonly url: string;
  readonly path: string;
  readonly token: string | null;
  readonly scenario: Scenario;
  /** Makes this run's refs unique within the database. */
  readonly prefix: string;
  readonly connections: number;
  readonly warmupSeconds: number;
  readonly durationSeconds: number;
  /** A fixed number of requests instead of a duration (seeding); no warm-up then. */
  readonly amount?: number;
  /** Scenario (c): how many leads to create first and then merge into. */
  readonly mergeLeads?: number;
  /** Whose CPU time to report over the measured window. */
  readonly serverPid?: number;
}

export interface LoadResult {
  readonly requests: number;
  readonly durationSeconds: number;
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly non2xx: number;
  readonly errors: number;
  readonly statusCodes: Record<string, number>;
  /** The first non-2xx answer, to say why a run failed. */
  readonly firstFailure: string | null;
  /** CPU time over the measured window as a share of one core. */
  readonly generatorCpuPercent: number;
  readonly serverCpuPercent: number | null;
  /** PostgreSQL's processes (those alive when the window opened) over the window. */
  readonly postgresCpuPercent: number;
  /** CPU used by every process on the machine over the window. */
  readonly machineCpuPercent: number | null;
}

function bodies(spec: LoadSpec): BodyFactory {
  switch (spec.scenario) {
    case 'minimal': return minimalBodies(spec.prefix);
    case 'full': return fullBodies(spec.prefix);
    case 'merge': return mergeBodies(spec.prefix, spec.mergeLeads ?? 1000);
  }
}

interface Run {
  readonly result: AutocannonResult;
  readonly latencies: Float64Array;
  readonly count: number;
  readonly firstFailure: string | null;
}

function run(spec: LoadSpec, next: BodyFactory, limit: { duration: number } | { amount: number }): Promise<Run> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (spec.token !== null) headers.authorization = `apikey ${spec.token}`;
  // Latencies of 2xx answers in ms with sub-millisecond precision (autocannon's own
  // histogram keeps whole milliseconds).
  let latencies = new Float64Array(1 << 16);
  let count = 0;
  let firstFailure: string | null = null;
  return new Promise((resolve, reject) => {
    const instance = autocannon({
      url: spec.url,
      connections: spec.connections,
      timeout: 30,
      ...limit,
      requests: [{
        method: 'POST',
        path: spec.path,
        headers,
        setupRequest: (request) => ({ ...request, body: next() }),
        onResponse: (status, body) => {
          if ((status < 200 || status > 299) && firstFailure === null) firstFailure = `${status} ${body.slice(0, 500)}`;
        },
      }],
    }, (error, result) => (error ? reject(error) : resolve({ result, latencies: latencies.subarray(0, count), count, firstFailure })));
    instance.on('response', (_client: unknown, status: number, _bytes: number, time: number) => {
      if (status < 200 || status > 299) return;
      if (count === latencies.length) {
        const grown = new Float64Array(latencies.length * 2);
        grown.set(latencies);
        latencies = grown;
      }
      latencies[count++] = time;
    });
  });
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function failures(run: Run): number {
  return run.result.non2xx + run.result.errors + run.result.timeouts;
}

async function main(spec: LoadSpec): Promise<LoadResult> {
  if (spec.scenario === 'merge') {
    const created = await run(spec, mergeTargetBodies(spec.prefix), { amount: spec.mergeLeads ?? 1000 });
    if (failures(created) > 0) return summarise(created, NO_CPU);
  }
  const next = bodies(spec);
  if (spec.amount === undefined && spec.warmupSeconds > 0) {
    const warmup = await run(spec, next, { duration: spec.warmupSeconds });
    if (failures(warmup) > 0) return summarise(warmup, NO_CPU);
  }
  const window = openCpuWindow(spec.serverPid);
  const measured = await run(spec, next, spec.amount === undefined ? { duration: spec.durationSeconds } : { amount: spec.amount });
  return summarise(measured, window(measured.result.duration));
}

type CpuShares = Pick<LoadResult, 'generatorCpuPercent' | 'serverCpuPercent' | 'postgresCpuPercent' | 'machineCpuPercent'>;
const NO_CPU: CpuShares = { generatorCpuPercent: 0, serverCpuPercent: null, postgresCpuPercent: 0, machineCpuPercent: null };

/** Starts counting CPU time; the returned function gives each party's share of one core. */
function openCpuWindow(serverPid: number | undefined): (seconds: number) => CpuShares {
  const generator = process.cpuUsage();
  const server = serverPid === undefined ? null : processCpuSeconds(serverPid);
  const machine = machineBusySeconds();
  const postgres = postgresPids();
  const postgresBefore = totalCpuSeconds(postgres);
  const share = (before: number | null, after: number | null, seconds: number) =>
    before === null || after === null ? null : ((after - before) / seconds) * 100;
  return (seconds) => {
    const used = process.cpuUsage(generator);
    return {
      generatorCpuPercent: ((used.user + used.system) / 1e6 / seconds) * 100,
      serverCpuPercent: share(server, serverPid === undefined ? null : processCpuSeconds(serverPid), seconds),
      postgresCpuPercent: share(postgresBefore, totalCpuSeconds(postgres), seconds)!,
      machineCpuPercent: share(machine, machineBusySeconds(), seconds),
    };
  };
}

function summarise(run: Run, cpu: CpuShares): LoadResult {
  const sorted = run.latencies.slice().sort();
  const statusCodes: Record<string, number> = {};
  for (const [code, { count }] of Object.entries(run.result.statusCodeStats)) statusCodes[code] = count;
  return {
    requests: run.count,
    durationSeconds: run.result.duration,
    requestsPerSecond: run.count / run.result.duration,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    non2xx: run.result.non2xx,
    errors: run.result.errors + run.result.timeouts,
    statusCodes,
    firstFailure: run.firstFailure,
    ...cpu,
  };
}

if (import.meta.main) {
  const spec = JSON.parse(process.argv[2] ?? '') as LoadSpec;
  process.stdout.write(`${JSON.stringify(await main(spec))}\n`);
}
