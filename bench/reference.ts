// BENCH_ONLY=reference: the reference databases at (a fraction of) full Belgian scale.
// Generates the published formats (samples/generate.ts), imports them with the real CLI
// (rows/s, peak RSS; a tenth-size import first, to show memory does not grow with the
// file), then drives the lookups and searches at BENCH_CONNECTIONS from a pinned load
// process, and measures push throughput with and without an import running.
// Writes docs/benchmarks-reference.md (BENCH_REFERENCE_OUTPUT to change).
//   BENCH_REFERENCE_SCALE=1 (2M enterprises, 6.6M addresses, 300k vehicle versions)
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes, randomInt } from 'node:crypto';
import readline from 'node:readline';
import { enterpriseNumber, generateCountry } from '../samples/generate.ts';
import { withBenchDatabase, withServer } from './bench-server.ts';
import { loadSpecFor } from './push-run.ts';
import type { BenchOptions } from './options.ts';
import { ROOT, runLoad, SERVER_ENV, startServer, type Pinning, type ServerProcess } from './processes.ts';
import type { ReferenceLoadResult, ReferenceLoadSpec } from './reference-load.ts';
import { log } from './measure.ts';
import { CURRENT_CODE } from './server-code.ts';

const FULL = { enterprises: 2_000_000, addresses: 6_600_000, vehicleVersions: 300_000 };
type Source = 'enterprises' | 'addresses' | 'vehicles';

interface Dataset {
  readonly dir: string;
  readonly enterprises: number;
  readonly addresses: number;
  readonly vehicleRows: number;
  readonly vehicleVersions: number;
}

async function dataset(scale: number): Promise<Dataset> {
  const enterprises = Math.round(FULL.enterprises * scale);
  const addresses = Math.round(FULL.addresses * scale);
  const vehicleVersions = Math.max(1, Math.round(FULL.vehicleVersions * scale));
  // Ten rows per version: every version once, the rest by popularity (EEA files have ~100).
  const vehicleRows = vehicleVersions * 10;
  // v3: the country's long tail of names (samples/national-vocabulary.ts) and a
  // continent's car catalogue (samples/national-catalogue.ts).
  const dir = path.join(ROOT, '.bench-tmp', `reference-v3-${scale}`);
  const done = path.join(dir, 'complete');
  if (!fs.existsSync(done)) {
    log(`reference: generating ${enterprises} enterprises, ${addresses} addresses, ${vehicleRows} EEA rows in ${dir}`);
    fs.rmSync(dir, { recursive: true, force: true });
    await generateCountry(dir, { enterprises, addresses, vehicleRows }, vehicleVersions);
    fs.writeFileSync(done, new Date().toISOString());
  }
  return { dir, enterprises, addresses, vehicleRows, vehicleVersions };
}

function inputs(data: Dataset, source: Source): string[] {
  const dir = path.join(data.dir, source);
  return source === 'enterprises' ? [dir] : fs.readdirSync(dir).map((name) => path.join(dir, name));
}

/** Runs `lead-intake data import` as an operator would; `done` resolves with its JSON summary. */
function startImport(
  env: Record<string, string>,
  source: Source,
  paths: string[],
  pinning: Pinning,
): { done: Promise<any>; stop(): void } {
  const args = [path.join(ROOT, 'bin/lead-intake.js'), 'data', 'import', source, ...paths];
  const child = pinning.enabled
    ? spawn('taskset', ['-c', '1', process.execPath, ...args], { cwd: ROOT, env: { ...process.env, ...env } })
    : spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk).slice(-2000)));
  const done = new Promise((resolve, reject) =>
    child.once('close', (code) =>
      code === 0 ? resolve(JSON.parse(stdout)) : reject(new Error(`import ${source} exited ${code}: ${stderr}`)),
    ),
  );
  return { done, stop: () => child.kill('SIGTERM') };
}

const importWithCli = (env: Record<string, string>, source: Source, paths: string[], pinning: Pinning) =>
  startImport(env, source, paths, pinning).done;

/** Runs bench/reference-load.ts on the load core: GETs cycling through the spec's paths. */
export function runReferenceLoad(spec: ReferenceLoadSpec, pinning: Pinning): Promise<ReferenceLoadResult> {
  // The spec goes in a file: 2,000 request paths are over the size one argument may have.
  const specFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'reference-load-')), 'spec.json');
  fs.writeFileSync(specFile, JSON.stringify(spec));
  const args = [path.join(ROOT, 'bench/reference-load.ts'), specFile];
  const child = pinning.enabled
    ? spawn('taskset', ['-c', '1', process.execPath, ...args], { cwd: ROOT })
    : spawn(process.execPath, args, { cwd: ROOT });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk).slice(-2000)));
  return new Promise((resolve, reject) =>
    child.once('close', (code) =>
      code === 0
        ? resolve(JSON.parse(stdout.trim().split('\n').at(-1)!))
        : reject(new Error(`load exited ${code}: ${stderr}`)),
    ),
  );
}

const pick = <T>(list: readonly T[]) => list[randomInt(list.length)]!;
const prefixOf = (word: string) => word.slice(0, Math.max(3, Math.ceil(word.length * 0.6)));

/** Every `step`-th data line of a generated CSV, split on `delimiter` (these files quote nothing inside a field). */
async function sampleLines(file: string, step: number, delimiter = ','): Promise<string[][]> {
  const lines: string[][] = [];
  let n = 0;
  for await (const line of readline.createInterface({ input: fs.createReadStream(file) })) {
    if (n++ % step === 1) lines.push(line.split(delimiter).map((field) => field.replace(/^"|"$/g, '')));
  }
  return lines;
}

/**
 * Requests a person filling a form would send, drawn from the rows the generator wrote, so
 * that their words are as frequent as the data's: a busy street more often than a lane.
 */
async function workloads(data: Dataset): Promise<Record<string, string[]>> {
  const n = 2000;
  const many = (make: () => string) => Array.from({ length: n }, make);
  const enc = encodeURIComponent;
  const addresses = (
    await Promise.all(
      fs
        .readdirSync(path.join(data.dir, 'addresses'))
        .map((name) =>
          sampleLines(path.join(data.dir, 'addresses', name), Math.max(1, Math.floor(data.addresses / (3 * n)))),
        ),
    )
  ).flat();
  // BeST columns: 6 house_number, 8-10 municipality de/fr/nl, 11 postcode, 15-17 street de/fr/nl.
  const address = () => {
    const row = pick(addresses);
    const french = row[17] === '' || (row[16] !== '' && randomInt(2) === 0);
    return {
      street: (french ? row[16] : row[17]) || row[15]!,
      house: row[6]!,
      town: (french ? row[9] : row[10]) || row[8]!,
      zipcode: row[11]!,
    };
  };
  // EEA columns (recent spelling): 11 Mk, 12 Cn, 23 Ft. A popular version is drawn as often as the file has it.
  const cars = await sampleLines(
    path.join(data.dir, 'vehicles', 'CO2_passenger_cars_2023.csv'),
    Math.max(1, Math.floor((data.vehicleRows * 0.75) / n)),
  );
  const names = (
    await sampleLines(
      path.join(data.dir, 'enterprises', 'denomination.csv'),
      Math.max(1, Math.floor(data.enterprises / n)),
    )
  ).filter((row) => row[2] === '001');
  const namePrefixes = () => {
    const words = pick(names)[3]!
      .split(/[\s&,]+/)
      .filter((word) => word.length > 1);
    return words.slice(0, 2).map(prefixOf).join(' ');
  };
  return {
    'enterprise by number': many(() => `/v1/api/enterprises/${enterpriseNumber(randomInt(data.enterprises))}`),
    'enterprise search (name prefixes)': many(() => `/v1/api/enterprises?q=${enc(namePrefixes())}`),
    'enterprise search (number prefix)': many(
      () => `/v1/api/enterprises?q=${enterpriseNumber(randomInt(data.enterprises)).slice(0, 7)}`,
    ),
    'address by id': many(() => `/v1/api/addresses/${1_000_000 + randomInt(data.addresses)}`),
    'address search (street, number, town)': many(() => {
      const { street, house, town } = address();
      return `/v1/api/addresses?q=${enc(`${street} ${house} ${town}`)}`;
    }),
    'address search (street, number, postcode)': many(() => {
      const { street, house, zipcode } = address();
      return `/v1/api/addresses?q=${enc(`${street} ${house} ${zipcode}`)}`;
    }),
    'address search (typing: street prefix)': many(
      () => `/v1/api/addresses?q=${enc(prefixOf(address().street))}&limit=10`,
    ),
    'vehicle versions (brand, model)': many(() => {
      const car = pick(cars);
      return `/v1/api/vehicles/versions?brand=${enc(car[11]!)}&model=${enc(car[12]!)}`;
    }),
    'vehicle versions (free text)': many(() => {
      const car = pick(cars);
      return `/v1/api/vehicles/versions?q=${enc(`${car[12]} ${car[23]!.toLowerCase()}`)}`;
    }),
  };
}

const REFERENCE_SCOPES = ['leads:write', 'enterprise:read', 'address:read', 'vehicle:read'];

export interface ReferenceBenchResult {
  readonly dialect: string;
  readonly imports: { source: Source; scale: string; summary: any }[];
  readonly loads: { label: string; result: ReferenceLoadResult; alone: ReferenceLoadResult }[];
  readonly pushes: { label: string; requestsPerSecond: number; p99Ms: number }[];
}

/** The same GETs at the benchmark's connections, then one at a time: the time a request takes without waiting behind the others. */
async function loadAndAlone(
  server: ServerProcess,
  token: string,
  paths: string[],
  options: BenchOptions,
  pinning: Pinning,
): Promise<{ load: ReferenceLoadResult; alone: ReferenceLoadResult }> {
  const spec = {
    url: server.url,
    token,
    paths,
    connections: options.connections,
    warmupSeconds: options.warmupSeconds,
    durationSeconds: options.durationSeconds,
    serverPid: server.pid,
  };
  const load = await runReferenceLoad(spec, pinning);
  const alone = await runReferenceLoad({ ...spec, connections: 1 }, pinning);
  return { load, alone };
}

async function benchDialect(
  dialect: 'sqlite' | 'postgres',
  full: Dataset,
  tenth: Dataset,
  requests: Record<string, string[]>,
  options: BenchOptions,
  pinning: Pinning,
): Promise<ReferenceBenchResult> {
  return withBenchDatabase(
    { engine: dialect, postgresUrl: options.postgresUrl, scopes: REFERENCE_SCOPES },
    async (db) => {
      const env = { ...SERVER_ENV, ...db.env };
      const result: ReferenceBenchResult = { dialect, imports: [], loads: [], pushes: [] };
      for (const source of ['vehicles', 'addresses', 'enterprises'] as const) {
        for (const [data, scale] of [
          [tenth, 'tenth'],
          [full, 'full'],
        ] as const) {
          log(`reference ${dialect}: importing ${source} (${scale})`);
          const summary = await importWithCli(env, source, inputs(data, source), pinning);
          log(
            `reference ${dialect}: ${source} ${scale}: ${summary.rows_read} rows in ${summary.seconds} s, ${summary.rows_per_second} rows/s, peak RSS ${summary.peak_rss_mb} MiB`,
          );
          result.imports.push({ source, scale, summary });
        }
      }
      return withServer(db, CURRENT_CODE, { pinning }, async (server) => {
        for (const [label, paths] of Object.entries(requests)) {
          log(`reference ${dialect}: ${label}`);
          const { load, alone } = await loadAndAlone(server.process, db.token, paths, options, pinning);
          log(
            `  ${load.requestsPerSecond.toFixed(0)} req/s, p50 ${load.p50Ms.toFixed(2)} ms, p99 ${load.p99Ms.toFixed(2)} ms, ${load.serverCpuMsPerRequest?.toFixed(3)} ms CPU/request, failures ${load.failures}${load.firstFailure ? ` (${load.firstFailure})` : ''}; alone p50 ${alone.p50Ms.toFixed(2)} ms, p99 ${alone.p99Ms.toFixed(2)} ms`,
          );
          result.loads.push({ label, result: load, alone });
        }
        // Pushes alone, then while the full address import runs in another process.
        const pushSpec = (prefix: string) => loadSpecFor(server, 'minimal', options, { prefix });
        const alone = await runLoad(pushSpec(`alone-${randomBytes(3).toString('hex')}`), pinning);
        result.pushes.push({ label: 'pushes alone', requestsPerSecond: alone.requestsPerSecond, p99Ms: alone.p99Ms });
        log(`reference ${dialect}: pushes alone ${alone.requestsPerSecond.toFixed(0)} req/s`);
        // The import is not pinned: it may take any idle time of either core, as it would in production.
        const importing = startImport(env, 'addresses', inputs(full, 'addresses'), { enabled: false });
        const during = await runLoad(pushSpec(`during-${randomBytes(3).toString('hex')}`), pinning);
        result.pushes.push({
          label: 'pushes while the address import runs',
          requestsPerSecond: during.requestsPerSecond,
          p99Ms: during.p99Ms,
        });
        log(`reference ${dialect}: pushes during import ${during.requestsPerSecond.toFixed(0)} req/s`);
        // Stopped once measured: what an interrupted import leaves is the old data (tested), and
        // waiting for it would only lengthen the run.
        importing.stop();
        await importing.done.catch(() => {});
        return result;
      });
    },
  );
}

function renderReference(
  results: readonly ReferenceBenchResult[],
  floor: FloorResult,
  full: Dataset,
  options: BenchOptions,
  scale: number,
  startedAt: Date,
  loadAtStart: string,
): string {
  const lines = [
    '# Reference databases: benchmark',
    '',
    `_Generated by \`BENCH_ONLY=reference npm run bench\` (bench/reference.ts), started ${startedAt.toISOString()}, on ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, load average at start ${loadAtStart}; run it again rather than editing this file._`,
    '',
    `Scale: **${scale === 1 ? 'full Belgian scale' : `${scale} of full Belgian scale`}**: ${full.enterprises.toLocaleString('en')} enterprises, ${full.addresses.toLocaleString('en')} BeST addresses, ${full.vehicleRows.toLocaleString('en')} EEA rows of ${full.vehicleVersions.toLocaleString('en')} versions, generated by samples/generate.ts in the published formats with the country's long tail of names (samples/national-vocabulary.ts: 581 municipalities, about 100,000 streets) and a continent's car catalogue (samples/national-catalogue.ts: about 700 models of Zipf-spread popularity, every version registered at least once, popular ones far more often). Requests are drawn from the generated rows. Load: ${options.connections} connections, ${options.warmupSeconds} s warm-up + ${options.durationSeconds} s measured per row, server pinned to core 0 and the load generator to core 1${options.pin ? '' : ' (pinning off)'}. Imports run as \`lead-intake data import\` processes. "Alone" is the same requests one at a time (1 connection): the time a request takes without waiting behind the others; at 50 connections a request waits for about 49 others on one core, so p99 there is mostly queueing.`,
    '',
  ];
  const f = floor.load;
  lines.push(
    '## The floor: a bare Fastify answering the same GETs',
    '',
    '| | req/s | p50 | p99 | server CPU per request | alone: p50 | alone: p99 |',
    '|---|---|---|---|---|---|---|',
    `| bare Fastify, address-by-id paths, no auth, no database | ${f.requestsPerSecond.toFixed(0)} | ${f.p50Ms.toFixed(2)} ms | ${f.p99Ms.toFixed(2)} ms | ${f.serverCpuMsPerRequest?.toFixed(3) ?? '?'} ms | ${floor.alone.p50Ms.toFixed(2)} ms | ${floor.alone.p99Ms.toFixed(2)} ms |`,
    '',
    `No read can answer sooner than this on this machine: at ${options.connections} connections a request waits behind the others on the server's one core, so p99 there is about ${options.connections} times a request's CPU plus the loop's jitter. A p99 target at ${options.connections} connections asks a read to cost at most (target / floor p99) times the floor's CPU: ${((5 / f.p99Ms) * (f.serverCpuMsPerRequest ?? NaN)).toFixed(3)} ms of CPU for a lookup (5 ms), ${((20 / f.p99Ms) * (f.serverCpuMsPerRequest ?? NaN)).toFixed(3)} ms for a search (20 ms), API-token check, database and JSON included.`,
    '',
  );
  for (const result of results) {
    lines.push(
      `## ${result.dialect}`,
      '',
      '### Imports',
      '',
      '| database | input | rows read | rows kept | seconds | rows/s | peak RSS |',
      '|---|---|---|---|---|---|---|',
    );
    for (const { source, scale: size, summary } of result.imports) {
      const kept = Object.values(summary.rows as Record<string, number>).reduce((a, b) => a + b, 0);
      lines.push(
        `| ${source} | ${size} | ${summary.rows_read.toLocaleString('en')} | ${kept.toLocaleString('en')} | ${summary.seconds} | ${summary.rows_per_second.toLocaleString('en')} | ${summary.peak_rss_mb} MiB |`,
      );
    }
    lines.push(
      '',
      '### Reads',
      '',
      `| request | req/s | p50 | p99 | target p99 | server CPU per request | non-2xx/404 | alone: p50 | alone: p99 |`,
      '|---|---|---|---|---|---|---|---|---|',
    );
    for (const { label, result: r, alone } of result.loads) {
      // DESIGN targets: exact lookups under 5 ms, searches under 20 ms (p99, SQLite, full scale),
      // judged both ways: at the benchmark's connections, and for a request on its own.
      const target = label.includes(' by ') ? 5 : 20;
      const verdict = (p99: number) => (p99 < target ? 'met' : 'missed');
      lines.push(
        `| ${label} | ${r.requestsPerSecond.toFixed(0)} | ${r.p50Ms.toFixed(2)} ms | ${r.p99Ms.toFixed(2)} ms | ${target} ms: ${verdict(r.p99Ms)} at ${options.connections} connections, ${verdict(alone.p99Ms)} alone | ${r.serverCpuMsPerRequest?.toFixed(3) ?? '?'} ms | ${r.failures} | ${alone.p50Ms.toFixed(2)} ms | ${alone.p99Ms.toFixed(2)} ms |`,
      );
    }
    lines.push('', '### Pushes while importing', '', '| | req/s | p99 |', '|---|---|---|');
    for (const push of result.pushes)
      lines.push(`| ${push.label} | ${push.requestsPerSecond.toFixed(0)} | ${push.p99Ms.toFixed(1)} ms |`);
    lines.push('');
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The floor under every read: a bare Fastify answering the same GETs (bench/echo-server.ts),
 * no auth, no database, at the same connections and alone. A read cannot be quicker than this
 * on this machine, and at 50 connections on one core its p99 is mostly queueing behind the rest.
 */
async function measureFloor(paths: string[], options: BenchOptions, pinning: Pinning): Promise<FloorResult> {
  const server = await startServer('bench/echo-server.ts', {}, { pinning, readyPath: '/' });
  try {
    const { load, alone } = await loadAndAlone(server, 'none', paths, options, pinning);
    log(
      `reference floor (bare Fastify GET): ${load.requestsPerSecond.toFixed(0)} req/s, p99 ${load.p99Ms.toFixed(2)} ms, ${load.serverCpuMsPerRequest?.toFixed(3)} ms CPU/request`,
    );
    return { load, alone };
  } finally {
    await server.stop();
  }
}

interface FloorResult {
  readonly load: ReferenceLoadResult;
  readonly alone: ReferenceLoadResult;
}

export async function referenceBenchmark(options: BenchOptions, pinning: Pinning): Promise<void> {
  const scale = Number(process.env.BENCH_REFERENCE_SCALE ?? '1');
  if (!(scale > 0 && scale <= 1)) throw new Error('BENCH_REFERENCE_SCALE must be in (0, 1]');
  const startedAt = new Date();
  const loadAtStart = os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
  const full = await dataset(scale);
  const tenth = await dataset(Math.round(scale * 1000) / 10_000);
  // Drawn once from the full data (reading it takes a while), for the floor and both databases alike.
  const requests = await workloads(full);
  const floor = await measureFloor(requests['address by id']!, options, pinning);
  const results: ReferenceBenchResult[] = [];
  for (const dialect of options.databases)
    results.push(await benchDialect(dialect, full, tenth, requests, options, pinning));
  const output = path.resolve(ROOT, process.env.BENCH_REFERENCE_OUTPUT ?? 'docs/benchmarks-reference.md');
  fs.writeFileSync(output, renderReference(results, floor, full, options, scale, startedAt, loadAtStart));
  fs.writeFileSync(
    path.join(path.dirname(full.dir), `reference-${scale}-results.json`),
    JSON.stringify({ results, floor, full, scale, startedAt, loadAtStart }, null, 2),
  );
  log(`wrote ${output}`);
}
