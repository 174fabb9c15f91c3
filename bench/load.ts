// The load generator: a process of its own (run.ts starts it, pinned to the other core),
// so autocannon never shares the server's event loop or CPU. Reads a LoadSpec as JSON
// from argv[2]; prints one LoadResult as JSON on stdout.
//
// Warm-up and measurement are one autocannon run over the same connections: only the
// answers that arrive after the warm-up count. (A second run would open 50 new
// connections, and a busy Node server accepts one connection per event-loop turn, so the
// measurement would start with a queue of connections waiting to be accepted.)
import autocannon from 'autocannon';
import { machineBusySeconds, postgresPids, processCpuSeconds, totalCpuSeconds } from './procfs.ts';
import {
  fullBodies,
  mergeBodies,
  resyncBodies,
  mergeTargetBodies,
  minimalBodies,
  webhookBodies,
  type BodyFactory,
  type Scenario,
} from './payloads.ts';

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
  /** Scenario (e): the merges change a birth date instead of the telephone number, which is a search word. */
  readonly merges?: 'keeping-words';
  /** Whose CPU time to report over the measured window. */
  readonly serverPid?: number;
  /** Scenario (d): the callback URL every pushed lead carries. */
  readonly callbackUrl?: string;
  /** Set: each request is a batch (POST .../leads/batch) of this many of the scenario's bodies. */
  readonly batchSize?: number;
  /**
   * `fresh`: every request carries an Idempotency-Key of its own. `replay`: REPLAY_KEYS
   * requests with their keys are sent first, then the run sends them again and again, so
   * every measured answer is a replay.
   */
  readonly idempotency?: 'fresh' | 'replay';
}

/** The requests a replay run repeats, round-robin. */
export const REPLAY_KEYS = 100;

interface NextRequest {
  readonly body: string;
  readonly key?: string;
}
type RequestFactory = () => NextRequest;

export interface LoadResult {
  /** 2xx answers within the measured window. */
  readonly requests: number;
  readonly durationSeconds: number;
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Over the whole run, warm-up included. */
  readonly non2xx: number;
  readonly errors: number;
  readonly statusCodes: Record<string, number>;
  /** The first non-2xx answer, to say why a run failed. */
  readonly firstFailure: string | null;
  /** CPU time over the measured window as a share of one core. */
  readonly generatorCpuPercent: number;
  readonly serverCpuPercent: number | null;
  /** PostgreSQL's processes (those alive when the window opened). */
  readonly postgresCpuPercent: number;
  /** Every process on the machine. */
  readonly machineCpuPercent: number | null;
  /** The measured window on the monotonic clock, in µs: what a server's CPU profile's timestamps use. */
  readonly windowMicros?: { readonly start: number; readonly end: number };
}

function bodies(spec: LoadSpec): BodyFactory {
  switch (spec.scenario) {
    case 'minimal':
      return minimalBodies(spec.prefix);
    case 'full':
      return fullBodies(spec.prefix);
    case 'merge':
      return spec.merges === 'keeping-words'
        ? resyncBodies(spec.prefix, spec.mergeLeads ?? 1000)
        : mergeBodies(spec.prefix, spec.mergeLeads ?? 1000);
    case 'webhook':
      return webhookBodies(spec.prefix, spec.callbackUrl!);
    case 'listing':
      return () => '';
  }
}

/** The scenario's bodies, batched and keyed as the spec says. */
function requestsOf(spec: LoadSpec): RequestFactory {
  const single = bodies(spec);
  const size = spec.batchSize;
  // A batch item is the single push's body with its kind in front.
  const body: BodyFactory =
    size === undefined
      ? single
      : () => `{"leads":[${Array.from({ length: size }, () => `{"type":"CUSTOMER",${single().slice(1)}`).join(',')}]}`;
  if (spec.idempotency === 'fresh') {
    let n = 0;
    return () => ({ body: body(), key: `${spec.prefix}-key-${n++}` });
  }
  if (spec.idempotency === 'replay') {
    const pool = Array.from({ length: REPLAY_KEYS }, (_, i) => ({ body: body(), key: `${spec.prefix}-replay-${i}` }));
    let n = 0;
    return () => pool[n++ % pool.length]!;
  }
  return () => ({ body: body() });
}

type CpuShares = Pick<
  LoadResult,
  'generatorCpuPercent' | 'serverCpuPercent' | 'postgresCpuPercent' | 'machineCpuPercent'
>;

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

/** Latencies of 2xx answers in ms, sub-millisecond (autocannon's histogram keeps whole ms). */
class Latencies {
  #values = new Float64Array(1 << 16);
  count = 0;
  add(ms: number): void {
    if (this.count === this.#values.length) {
      const grown = new Float64Array(this.#values.length * 2);
      grown.set(this.#values);
      this.#values = grown;
    }
    this.#values[this.count++] = ms;
  }
  /** Sorts the latencies so far once and returns a reader of their percentiles. */
  percentiles(): (p: number) => number {
    const sorted = this.#values.slice(0, this.count).sort();
    const n = sorted.length;
    return (p) => (n === 0 ? NaN : sorted[Math.min(n - 1, Math.ceil((p / 100) * n) - 1)]!);
  }
}

/** CLOCK_MONOTONIC in µs, the clock of V8's CPU profiles (`startTime`, `timeDeltas`). */
const monotonicMicros = () => Number(process.hrtime.bigint() / 1000n);

/**
 * One autocannon run: `amount` requests, or warm-up + duration seconds. With a warm-up,
 * answers, latencies and CPU count only from its end on.
 */
function run(
  spec: LoadSpec,
  next: RequestFactory,
  limit: { amount: number } | { warmup: number; duration: number },
): Promise<LoadResult> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (spec.token !== null) headers.authorization = `apikey ${spec.token}`;
  const latencies = new Latencies();
  let firstFailure: string | null = null;
  let measuring: {
    readonly start: number;
    readonly startMicros: number;
    readonly close: (seconds: number) => CpuShares;
  } | null = null;
  const open = () => {
    measuring = { start: performance.now(), startMicros: monotonicMicros(), close: openCpuWindow(spec.serverPid) };
  };
  if ('amount' in limit || limit.warmup === 0) open();
  const timer = 'warmup' in limit && limit.warmup > 0 ? setTimeout(open, limit.warmup * 1000) : undefined;

  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: spec.url,
        connections: spec.connections,
        timeout: 30,
        ...('amount' in limit ? { amount: limit.amount } : { duration: limit.warmup + limit.duration }),
        requests: [
          spec.scenario === 'listing'
            ? {
                // The change listing's first page of 100 leads (of the 1,000 pushed first).
                method: 'GET',
                path: `${spec.path.replace(/\/(customers|companies)$/, '')}?limit=100`,
                headers,
              }
            : {
                method: 'POST',
                path: spec.path,
                headers,
                setupRequest: (request) => {
                  const { body, key } = next();
                  return {
                    ...request,
                    body,
                    ...(key !== undefined && { headers: { ...headers, 'idempotency-key': key } }),
                  };
                },
                onResponse: (status, body) => {
                  if ((status < 200 || status > 299) && firstFailure === null)
                    firstFailure = `${status} ${body.slice(0, 500)}`;
                },
              },
        ],
      },
      (error, result) => {
        clearTimeout(timer);
        if (error) return reject(error);
        const measured = measuring;
        const seconds = measured === null ? NaN : (performance.now() - measured.start) / 1000;
        const percentile = latencies.percentiles();
        const statusCodes: Record<string, number> = {};
        for (const [code, { count }] of Object.entries(result.statusCodeStats)) statusCodes[code] = count;
        resolve({
          requests: latencies.count,
          durationSeconds: seconds,
          requestsPerSecond: latencies.count / seconds,
          p50Ms: percentile(50),
          p99Ms: percentile(99),
          non2xx: result.non2xx,
          errors: result.errors + result.timeouts,
          statusCodes,
          firstFailure,
          ...(measured === null
            ? { generatorCpuPercent: NaN, serverCpuPercent: null, postgresCpuPercent: NaN, machineCpuPercent: null }
            : { ...measured.close(seconds), windowMicros: { start: measured.startMicros, end: monotonicMicros() } }),
        });
      },
    );
    instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
      if (measuring !== null && status >= 200 && status <= 299) latencies.add(ms);
    });
  });
}

async function main(spec: LoadSpec): Promise<LoadResult> {
  if (spec.scenario === 'merge' || spec.scenario === 'listing') {
    const targets = mergeTargetBodies(spec.prefix);
    const created = await run(spec, () => ({ body: targets() }), { amount: spec.mergeLeads ?? 1000 });
    if (created.non2xx + created.errors > 0) return created;
  }
  const next = requestsOf(spec);
  if (spec.idempotency === 'replay') {
    // The originals, each once (their keys all differ, so none waits for another).
    const originals = await run(spec, next, { amount: REPLAY_KEYS });
    if (originals.non2xx + originals.errors > 0) return originals;
  }
  return spec.amount === undefined
    ? run(spec, next, { warmup: spec.warmupSeconds, duration: spec.durationSeconds })
    : run(spec, next, { amount: spec.amount });
}

if (import.meta.main) {
  const spec = JSON.parse(process.argv[2] ?? '') as LoadSpec;
  process.stdout.write(`${JSON.stringify(await main(spec))}\n`);
}
