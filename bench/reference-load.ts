// The load generator for the reference databases' GET endpoints: a process of its own
// (pinned to the load core like bench/load.ts), cycling through a list of paths at N
// connections. Warm-up and measurement are one autocannon run; only answers after the
// warm-up count. Takes the path of a JSON ReferenceLoadSpec; prints one ReferenceLoadResult as JSON.
import fs from 'node:fs';
import autocannon from 'autocannon';
import { processCpuSeconds } from './procfs.ts';

export interface ReferenceLoadSpec {
  readonly url: string;
  readonly token: string;
  /** Sent instead of the token's Authorization header (the broker app's session cookie). */
  readonly headers?: Readonly<Record<string, string>>;
  readonly paths: readonly string[];
  readonly connections: number;
  readonly warmupSeconds: number;
  readonly durationSeconds: number;
  readonly serverPid: number;
}

export interface ReferenceLoadResult {
  readonly requests: number;
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Answers that were neither 2xx nor 404 (an unknown id is a fair answer), and socket errors. */
  readonly failures: number;
  readonly statusCodes: Record<string, number>;
  readonly firstFailure: string | null;
  /** Server CPU time per answered request in the measured window, in ms. */
  readonly serverCpuMsPerRequest: number | null;
  readonly serverCpuPercent: number | null;
}

function run(spec: ReferenceLoadSpec): Promise<ReferenceLoadResult> {
  const latencies: number[] = [];
  let measuring: { start: number; cpu: number | null } | null = null;
  let index = 0;
  let firstFailure: string | null = null;
  let failures = 0;
  const timer = setTimeout(
    () => (measuring = { start: performance.now(), cpu: processCpuSeconds(spec.serverPid) }),
    spec.warmupSeconds * 1000,
  );
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: spec.url,
        connections: spec.connections,
        timeout: 30,
        duration: spec.warmupSeconds + spec.durationSeconds,
        requests: [
          {
            method: 'GET',
            headers: { ...(spec.headers ?? { authorization: `apikey ${spec.token}` }) },
            setupRequest: (request) => ({ ...request, path: spec.paths[index++ % spec.paths.length]! }),
            onResponse: (status, body) => {
              if (status >= 300 && status !== 404 && firstFailure === null)
                firstFailure = `${status} ${body.slice(0, 300)}`;
            },
          },
        ],
      },
      (error, result) => {
        clearTimeout(timer);
        if (error || measuring === null) return reject(error ?? new Error('the run ended before the warm-up did'));
        const seconds = (performance.now() - measuring.start) / 1000;
        const cpuAfter = processCpuSeconds(spec.serverPid);
        const sorted = Float64Array.from(latencies).sort();
        const percentile = (p: number) =>
          sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
        const statusCodes: Record<string, number> = {};
        for (const [code, { count }] of Object.entries(result.statusCodeStats)) statusCodes[code] = count;
        const cpu = measuring.cpu === null || cpuAfter === null ? null : cpuAfter - measuring.cpu;
        resolve({
          requests: sorted.length,
          requestsPerSecond: sorted.length / seconds,
          p50Ms: percentile(50),
          p99Ms: percentile(99),
          failures: failures + result.errors + result.timeouts,
          statusCodes,
          firstFailure,
          serverCpuMsPerRequest: cpu === null ? null : (cpu * 1000) / sorted.length,
          serverCpuPercent: cpu === null ? null : (cpu / seconds) * 100,
        });
      },
    );
    instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
      if (status >= 300 && status !== 404) failures += 1;
      else if (measuring !== null) latencies.push(ms);
    });
  });
}

if (import.meta.main) {
  const spec = JSON.parse(fs.readFileSync(process.argv[2] ?? '', 'utf8')) as ReferenceLoadSpec;
  process.stdout.write(`${JSON.stringify(await run(spec))}\n`);
}
