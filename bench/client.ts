// BENCH_ONLY=client: what the TypeScript client (clients/typescript) adds to a push's
// latency, against the same request made with plain fetch, in the same run (docs/design.md
// section 14: under 5%). The server runs on core 0 over a fresh database, the load
// (bench/client-latency.ts) on core 1; one connection at a time (a push's own latency) and
// eight at once. Prints a markdown section for docs/benchmarks.md.
//   BENCH_CLIENT_REQUESTS (2000) measured pushes per way, per database and concurrency
import path from 'node:path';
import { spawnNode } from '../test/support/server-process.ts';
import type { ClientLatencyResult, ClientLatencySpec, Timings } from './client-latency.ts';
import { withBenchServer } from './bench-server.ts';
import type { BenchDialect } from './database.ts';
import { describeMachine, type Machine } from './machine.ts';
import { log, waitForQuiet } from './measure.ts';
import type { BenchOptions } from './options.ts';
import { type Pinning, ROOT } from './processes.ts';

const REQUESTS = Number(process.env.BENCH_CLIENT_REQUESTS ?? 2000);
const CONCURRENCY = [1, 8];

interface Run {
  readonly dialect: BenchDialect;
  readonly concurrency: number;
  readonly result: ClientLatencyResult;
}

export async function clientBenchmark(options: BenchOptions, pinning: Pinning): Promise<void> {
  const startedAt = new Date();
  const machine = await describeMachine(options);
  const runs: Run[] = [];
  for (const dialect of options.databases) {
    for (const concurrency of CONCURRENCY) {
      await waitForQuiet(`${dialect} client c=${concurrency}`, options);
      log(`client latency: ${dialect}, ${concurrency} at once, ${REQUESTS} pushes per way`);
      runs.push({ dialect, concurrency, result: await measureOnce(dialect, concurrency, options, pinning) });
    }
  }
  process.stdout.write(render(runs, { machine, startedAt }));
}

async function measureOnce(
  dialect: BenchDialect,
  concurrency: number,
  options: BenchOptions,
  pinning: Pinning,
): Promise<ClientLatencyResult> {
  return withBenchServer({ engine: dialect, postgresUrl: options.postgresUrl, pinning }, (server) =>
    runDriver(
      {
        url: server.url,
        token: server.token,
        distributionId: server.distributionId,
        requests: REQUESTS,
        concurrency,
        warmup: Math.ceil(REQUESTS / 10),
      },
      pinning,
    ),
  );
}

async function runDriver(spec: ClientLatencySpec, pinning: Pinning): Promise<ClientLatencyResult> {
  const child = spawnNode([path.join(ROOT, 'bench/client-latency.ts'), JSON.stringify(spec)], {
    cwd: ROOT,
    ...(pinning.enabled && { core: 1 }),
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk));
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk).slice(-4000)));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  if (code !== 0) throw new Error(`bench/client-latency.ts exited with ${code}:\n${stderr}`);
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as ClientLatencyResult;
}

const ms = (value: number) => value.toFixed(2);
const percent = (client: number, plain: number) =>
  `${client >= plain ? '+' : ''}${((client / plain - 1) * 100).toFixed(1)}%`;

function render(runs: Run[], context: { machine: Machine; startedAt: Date }): string {
  const { cpu, cores, node, postgres, loadAverage, revision } = context.machine;
  const row = (run: Run, way: string, t: Timings, plain?: Timings) =>
    `| ${run.dialect} | ${run.concurrency} | ${way} | ${t.requests} | ${ms(t.p50Ms)} | ${ms(t.p90Ms)} | ${ms(t.p99Ms)} | ` +
    `${ms(t.meanMs)} | ${t.cpuMicrosPerRequest === null ? '' : t.cpuMicrosPerRequest.toFixed(0)} | ${plain ? `${percent(t.p50Ms, plain.p50Ms)} / ${percent(t.meanMs, plain.meanMs)}` : ''} |`;
  return [
    '## The TypeScript client against plain fetch',
    '',
    `Measured ${context.startedAt.toISOString()} at ${revision} with \`BENCH_ONLY=client npm run bench\` (bench/client.ts): ` +
      `${cpu}, ${cores} cores, Node ${node}, PostgreSQL ${postgres ?? 'n/a'}, load average ${loadAverage} before.`,
    '',
    'The same push (a new customer lead, JSON body, API token, an `Idempotency-Key`) sent with plain `fetch` and ' +
      'with `pushCustomerLead` of clients/typescript, alternating request by request against one server over a ' +
      'fresh database. Latency from the call to the parsed answer. CPU (one at a time only) is the sending ' +
      "process's own time per request: what the client costs on the partner's side.",
    '',
    '| database | at once | sent with | requests | p50 ms | p90 ms | p99 ms | mean ms | client CPU µs/request | client vs fetch (p50 / mean) |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...runs.flatMap((run) => [
      row(run, 'fetch', run.result.fetch),
      row(run, 'client', run.result.client, run.result.fetch),
    ]),
    '',
  ].join('\n');
}
