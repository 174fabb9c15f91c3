// The soak: one server process per database takes BENCH_SOAK_REQUESTS mixed requests
// (soak-requests.ts: pushes with and without webhooks, merges, reads, PATCHes, reference
// look-ups, the broker app signed out, and refusals, over 20 distributions) and then sits
// idle for BENCH_SOAK_IDLE seconds. Its memory is sampled all along: the resident set from
// /proc, the heap in use from the server's own /metrics (prom-client's
// nodejs_heap_size_used_bytes, garbage included), and at the moments the report names
// (start, after warm-up, end, after idle) the heap that survives a full collection
// (bench/heap-sampler.ts). A process whose surviving heap keeps growing under a steady mix
// holds on to something: a leak, or a cache without a bound.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { withBenchDatabase, withServer } from './bench-server.ts';
import type { BenchDialect } from './database.ts';
import { log } from './measure.ts';
import type { BenchOptions } from './options.ts';
import { ROOT, startServer, type Pinning, type ServerProcess } from './processes.ts';
import { CURRENT_CODE } from './server-code.ts';
import type { SoakLoadResult, SoakLoadSpec } from './soak-load.ts';

const SAMPLES = path.join(ROOT, 'samples');
const BODY_LIMIT = 1024 * 1024;
const SAMPLE_EVERY_MS = 1000;
/** Distributions, each with its own token: per-credential and per-distribution state counts each. */
const DISTRIBUTIONS = 20;
/** Every scope an API token may carry: the soak reads and writes everything. */
const TOKEN_SCOPES = [
  'leads:write',
  'leads:read',
  'parties:update',
  'parties:read',
  'vehicle:read',
  'address:read',
  'enterprise:read',
];
/** The share of the requests after which the process counts as warm. */
const WARM_UP = 0.1;

export interface MemorySample {
  /** Seconds since the load started. */
  readonly seconds: number;
  /** Requests answered so far. */
  readonly requests: number;
  readonly rssMiB: number;
  /** The heap in use as /metrics reports it: live objects and garbage not collected yet. */
  readonly heapUsedMiB: number;
}

/** What survives a full collection, with the memory V8 holds for its heap's spaces. */
export interface LiveHeap extends MemorySample {
  readonly liveHeapMiB: number;
  /** The young generation V8 has committed: it grows under allocation, up to its limit. */
  readonly newSpaceMiB: number;
  readonly oldSpaceMiB: number;
  readonly externalMiB: number;
}

export interface SoakRun {
  readonly dialect: BenchDialect;
  readonly requests: number;
  readonly connections: number;
  readonly idleSeconds: number;
  readonly load: SoakLoadResult;
  readonly samples: readonly MemorySample[];
  readonly start: LiveHeap;
  readonly warm: LiveHeap;
  readonly end: LiveHeap;
  readonly idle: LiveHeap;
}

const MiB = 1024 * 1024;

/** VmRSS of a process, in MiB. */
function rssMiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1]) / 1024;
}

/** The server's own count of its used heap, from its /metrics. */
async function heapUsedMiB(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  return Number(/^nodejs_heap_size_used_bytes (\S+)$/m.exec(text)?.[1]) / MiB;
}

/** Asks the server's heap sampler for one line (a full collection first) and waits for it. */
async function liveHeap(pid: number, file: string): Promise<Omit<LiveHeap, keyof MemorySample>> {
  const lines = () => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim().split('\n').filter(Boolean) : []);
  const before = lines().length;
  process.kill(pid, 'SIGUSR2');
  const deadline = Date.now() + 30_000;
  while (lines().length === before) {
    if (Date.now() > deadline) throw new Error('the server wrote no heap sample');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const sample = JSON.parse(lines().at(-1)!) as {
    heapUsed: number;
    external: number;
    spaces: Record<string, number>;
  };
  return {
    liveHeapMiB: sample.heapUsed / MiB,
    newSpaceMiB: (sample.spaces.new_space ?? 0) / MiB,
    oldSpaceMiB: (sample.spaces.old_space ?? 0) / MiB,
    externalMiB: sample.external / MiB,
  };
}

/** `lead-intake data import` of the repository's samples, as an operator would run it. */
async function importSamples(env: Record<string, string>): Promise<void> {
  for (const source of ['vehicles', 'addresses', 'enterprises']) {
    const args = [path.join(ROOT, 'bin/lead-intake.js'), 'data', 'import', source, path.join(SAMPLES, source)];
    const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: 'ignore' });
    const code = await new Promise((resolve) => child.once('close', resolve));
    if (code !== 0) throw new Error(`importing the ${source} samples exited with ${code}`);
  }
}

/** Runs soak-load.ts; `onProgress` hears the answers counted so far. */
function runSoakLoad(
  spec: SoakLoadSpec,
  pinning: Pinning,
  onProgress: (done: number) => void,
): Promise<SoakLoadResult> {
  const args = [path.join(ROOT, 'bench/soak-load.ts'), JSON.stringify(spec)];
  const child = pinning.enabled
    ? spawn('taskset', ['-c', '1', process.execPath, ...args], { cwd: ROOT })
    : spawn(process.execPath, args, { cwd: ROOT });
  let last = '';
  let pending = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    const lines = (pending + chunk.toString()).split('\n');
    pending = lines.pop()!;
    for (const line of lines) {
      last = line;
      const progress = JSON.parse(line) as { done?: number };
      if (progress.done !== undefined) onProgress(progress.done);
    }
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk).slice(-2000);
  });
  return new Promise((resolve, reject) =>
    child.once('close', (code) =>
      code === 0 ? resolve(JSON.parse(last)) : reject(new Error(`soak load exited ${code}: ${stderr}`)),
    ),
  );
}

export async function soak(dialect: BenchDialect, options: BenchOptions, pinning: Pinning): Promise<SoakRun> {
  const { soakRequests: requests, soakIdleSeconds: idleSeconds, connections } = options;
  const heapFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'soak-heap-')), 'heap.jsonl');
  let receiver: ServerProcess | undefined;
  try {
    return await withBenchDatabase(
      { engine: dialect, postgresUrl: options.postgresUrl, scopes: TOKEN_SCOPES, distributions: DISTRIBUTIONS },
      async (database) => {
        await importSamples(database.env);
        receiver = await startServer(
          'bench/webhook-receiver.ts',
          {},
          { pinning, readyPath: '/stats', onLoadCore: true },
        );
        const callbackUrl = `${receiver.url}/hooks`;
        const env = {
          // A rate limit no request reaches, so that its store counts as in production.
          RATE_LIMIT: '1000000000/h',
          BODY_LIMIT: String(BODY_LIMIT),
          // The receiver is on loopback; the metadata address some leads name stays refused.
          WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
          BENCH_HEAP_SAMPLES: heapFile,
        };
        const nodeArgs = ['--expose-gc', '--import', './bench/heap-sampler.ts'];
        return withServer(database, CURRENT_CODE, { pinning, env, nodeArgs }, async ({ process: running }) => {
          const samples: MemorySample[] = [];
          let done = 0;
          const started = performance.now();
          const sample = async (): Promise<MemorySample> => {
            const heap = await heapUsedMiB(running.url);
            const entry = {
              seconds: (performance.now() - started) / 1000,
              requests: done,
              rssMiB: rssMiB(running.pid),
              heapUsedMiB: heap,
            };
            samples.push(entry);
            return entry;
          };
          // The named moments: the time series' sample, then a full collection and what survived.
          const moment = async (): Promise<LiveHeap> => ({
            ...(await sample()),
            ...(await liveHeap(running.pid, heapFile)),
          });

          const start = await moment();
          let sampling = false;
          const timer = setInterval(() => {
            if (sampling) return;
            sampling = true;
            void sample().finally(() => {
              sampling = false;
            });
          }, SAMPLE_EVERY_MS);
          const warmAt = Math.round(requests * WARM_UP);
          let warm: Promise<LiveHeap> | undefined;
          log(`${dialect} soak: ${requests} mixed requests at ${connections} connections, then ${idleSeconds} s idle`);
          const load = await runSoakLoad(
            {
              url: running.url,
              tenants: database.tenants,
              callbackUrl,
              // PUBLIC_URL's default, under which the broker app's redirect URI is registered.
              publicUrl: `http://localhost:${new URL(running.url).port}`,
              samples: SAMPLES,
              bodyLimit: BODY_LIMIT,
              requests,
              connections,
              every: Math.max(1, Math.round(requests / 100)),
            },
            pinning,
            (answered) => {
              done = answered;
              if (warm === undefined && answered >= warmAt) warm = moment();
              if (answered % Math.max(1, Math.round(requests / 10)) === 0) log(`${dialect} soak: ${answered} requests`);
            },
          );
          const end = await moment();
          await new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000));
          const idle = await moment();
          clearInterval(timer);
          if (running.exitStatus() !== null)
            throw new Error(`the server ${running.exitStatus()} during the soak:\n${running.output()}`);
          return {
            dialect,
            requests,
            connections,
            idleSeconds,
            load,
            samples,
            start,
            warm: await (warm ?? end),
            end,
            idle,
          };
        });
      },
    );
  } finally {
    await receiver?.stop();
    fs.rmSync(path.dirname(heapFile), { recursive: true, force: true });
  }
}
