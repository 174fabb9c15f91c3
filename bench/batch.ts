// Batches and Idempotency-Key (docs/design.md section 14): BENCH_ONLY=batch. On each
// database, in one run so the ratios compare like with like: the single minimal and full
// pushes (req/s), batches of BENCH_BATCH_SIZE (100) minimal and full leads at
// BENCH_BATCH_CONNECTIONS (8) connections (leads/s = batches/s x size), the minimal push
// with an Idempotency-Key of its own per request, and replays of 100 keyed pushes sent
// again and again; then statements per batch item against a single push's, and the
// raw-write limit bench/write-limits.ts measures. Each figure gets a fresh database and
// server. Prints a markdown section for docs/benchmarks.md.
import { randomBytes } from 'node:crypto';
import { pushPath, withBenchServer } from './bench-server.ts';
import type { BenchDialect } from './database.ts';
import type { LoadSpec } from './load.ts';
import { describeMachine } from './machine.ts';
import { log, measure, requireAllSucceeded, type Measurement } from './measure.ts';
import type { BenchOptions } from './options.ts';
import { minimalBodies, type BodyFactory, type Scenario } from './payloads.ts';
import { type Pinning, runLoad } from './processes.ts';
import { statementsSoFar } from './server-metrics.ts';
import { measureWriteLimits, renderWriteLimits } from './write-limits.ts';

const BATCH_SIZE = Number(process.env.BENCH_BATCH_SIZE ?? 100);
const BATCH_CONNECTIONS = Number(process.env.BENCH_BATCH_CONNECTIONS ?? 8);
/** BENCH_BATCH_VARIANTS=minimal,keyed: only those figures (a quick look; the ratio table then needs its pairs). */
const ONLY_VARIANTS = process.env.BENCH_BATCH_VARIANTS?.split(',').map((key) => key.trim());

interface Variant {
  readonly key: string;
  readonly label: string;
  readonly scenario: Scenario;
  readonly batch?: boolean;
  readonly idempotency?: 'fresh' | 'replay';
}

const VARIANTS: readonly Variant[] = [
  { key: 'minimal', label: 'minimal push, new lead', scenario: 'minimal' },
  { key: 'batch-minimal', label: `batch of ${BATCH_SIZE} minimal leads`, scenario: 'minimal', batch: true },
  { key: 'full', label: 'full push, new lead', scenario: 'full' },
  { key: 'batch-full', label: `batch of ${BATCH_SIZE} full leads`, scenario: 'full', batch: true },
  { key: 'keyed', label: 'minimal push with an Idempotency-Key', scenario: 'minimal', idempotency: 'fresh' },
  {
    key: 'replay',
    label: 'replay of a minimal push (same key, same body)',
    scenario: 'minimal',
    idempotency: 'replay',
  },
];

interface BatchFigure {
  readonly dialect: BenchDialect;
  readonly variant: Variant;
  readonly measurement: Measurement;
  /** Leads (or requests, for a single push) per second. */
  readonly perSecond: number;
}

async function measureVariant(
  dialect: BenchDialect,
  variant: Variant,
  options: BenchOptions,
  pinning: Pinning,
): Promise<Measurement> {
  return withBenchServer({ engine: dialect, postgresUrl: options.postgresUrl, pinning }, async (server) => {
    const spec: LoadSpec = {
      url: server.url,
      path: pushPath(server.distributionId, variant.batch ? 'batch' : 'customers'),
      token: server.token,
      scenario: variant.scenario,
      prefix: `${variant.key}-${randomBytes(4).toString('hex')}`,
      connections: variant.batch ? BATCH_CONNECTIONS : options.connections,
      warmupSeconds: options.warmupSeconds,
      durationSeconds: options.durationSeconds,
      serverPid: server.pid,
      ...(variant.batch && { batchSize: BATCH_SIZE }),
      ...(variant.idempotency && { idempotency: variant.idempotency }),
    };
    const load = await runLoad(spec, pinning);
    requireAllSucceeded(variant.label, load, server.process);
    return {
      label: variant.label,
      database: dialect,
      scenario: variant.scenario,
      load,
      peakRssMiB: server.process.peakRssMiB(),
    };
  });
}

interface StatementFigure {
  readonly dialect: BenchDialect;
  readonly single: number;
  readonly perItem: number;
}

/** Statements per lead: 20 single minimal pushes one at a time, then 5 batches of 20 minimal leads. */
async function statementsPerItem(dialect: BenchDialect, options: BenchOptions): Promise<StatementFigure> {
  return withBenchServer(
    {
      engine: dialect,
      postgresUrl: options.postgresUrl,
      pinning: { enabled: false },
      env: { WEBHOOK_WORKER: 'false' },
    },
    async (server) => {
      const post = async (path: 'customers' | 'batch', body: string) => {
        const response = await fetch(`${server.url}${pushPath(server.distributionId, path)}`, {
          method: 'POST',
          headers: { authorization: `apikey ${server.token}`, 'content-type': 'application/json' },
          body,
        });
        if (!response.ok) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
      };
      const prefix = randomBytes(4).toString('hex');
      const singles: BodyFactory = minimalBodies(`${prefix}-single`);
      const items: BodyFactory = minimalBodies(`${prefix}-item`);
      let before = await statementsSoFar(server.url);
      for (let i = 0; i < 20; i++) await post('customers', singles());
      const single = ((await statementsSoFar(server.url)) - before) / 20;
      before = await statementsSoFar(server.url);
      for (let b = 0; b < 5; b++) {
        const leads = Array.from({ length: 20 }, () => `{"type":"CUSTOMER",${items().slice(1)}`);
        await post('batch', `{"leads":[${leads.join(',')}]}`);
      }
      const perItem = ((await statementsSoFar(server.url)) - before) / 100;
      return { dialect, single, perItem };
    },
  );
}

export async function batchBenchmark(options: BenchOptions, pinning: Pinning): Promise<void> {
  const startedAt = new Date();
  const machine = await describeMachine(options);
  const figures: BatchFigure[] = [];
  const statements: StatementFigure[] = [];
  for (const dialect of options.databases) {
    for (const variant of VARIANTS.filter((v) => ONLY_VARIANTS === undefined || ONLY_VARIANTS.includes(v.key))) {
      const measurement = await measure(`${dialect} ${variant.label}`, options, () =>
        measureVariant(dialect, variant, options, pinning),
      );
      const perSecond = measurement.load.requestsPerSecond * (variant.batch ? BATCH_SIZE : 1);
      figures.push({ dialect, variant, measurement, perSecond });
    }
    statements.push(await statementsPerItem(dialect, options));
  }
  log('raw writes (bench/write-limits.ts)');
  const limits = await measureWriteLimits(options.databases, options.postgresUrl);
  const of = (dialect: BenchDialect, key: string) =>
    figures.find((figure) => figure.dialect === dialect && figure.variant.key === key) as BatchFigure;
  const lines: string[] = [
    '## Batches and Idempotency-Key',
    '',
    `\`BENCH_ONLY=batch npm run bench\`, ${startedAt.toISOString()}, server code ${machine.revision}, ${machine.cores} cores ` +
      `(${machine.cpu}), load average at start ${machine.loadAverage}, pinning: ${options.pin ? 'server core 0, generator core 1' : 'none'}. ` +
      `${options.warmupSeconds} s warm-up + ${options.durationSeconds} s per figure; single pushes at ` +
      `${options.connections} connections, batches of ${BATCH_SIZE} at ${BATCH_CONNECTIONS}. A fresh database and ` +
      'server per figure; all figures of one database in one run, so the ratios compare like with like.',
    '',
    '| Database | What | req/s | leads/s | p50 ms | p99 ms | server CPU % | server CPU µs per lead | PostgreSQL CPU µs per lead | other CPU % |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...figures.map(({ dialect, variant, measurement: { load }, perSecond }) => {
      const other = load.machineCpuPercent === null ? NaN : load.machineCpuPercent - (load.serverCpuPercent ?? 0);
      const perLead = (percent: number) => ((percent / 100) * 1e6) / perSecond;
      const postgres = dialect === 'postgres' ? perLead(load.postgresCpuPercent).toFixed(0) : 'n/a';
      return `| ${dialect} | ${variant.label} | ${load.requestsPerSecond.toFixed(0)} | ${perSecond.toFixed(0)} | ${load.p50Ms.toFixed(1)} | ${load.p99Ms.toFixed(1)} | ${load.serverCpuPercent?.toFixed(0) ?? 'n/a'} | ${perLead(load.serverCpuPercent ?? NaN).toFixed(0)} | ${postgres} | ${other.toFixed(0)} |`;
    }),
    '',
    'Ratios of leads/s, and in brackets of server CPU per lead (the second is steadier on a shared machine: it does not',
    'depend on how much of a core the server got). Targets: batch minimal >= 1.5 x single minimal on SQLite, batch full >= 1.2 x, keyed push within 10% of a plain one, a replay >= 2 x the keyed push.',
    '',
    '| Database | batch minimal / single minimal | batch full / single full | keyed / plain push | replay / keyed push | statements per single push | per batch item |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...options.databases.map((dialect) => {
      const ratio = (a: string, b: string) => {
        const [x, y] = [of(dialect, a), of(dialect, b)];
        if (!x || !y) return 'n/a';
        const cpu = (figure: BatchFigure) => (figure.measurement.load.serverCpuPercent ?? NaN) / figure.perSecond;
        return `${(x.perSecond / y.perSecond).toFixed(2)} (${(cpu(y) / cpu(x)).toFixed(2)})`;
      };
      const counted = statements.find((s) => s.dialect === dialect)!;
      return `| ${dialect} | ${ratio('batch-minimal', 'minimal')} | ${ratio('batch-full', 'full')} | ${ratio('keyed', 'minimal')} | ${ratio('replay', 'keyed')} | ${counted.single.toFixed(1)} | ${counted.perItem.toFixed(1)} |`;
    }),
    '',
    'The raw-write limit in the same run (bench/write-limits.ts):',
    '',
    renderWriteLimits(limits).trimEnd(),
    '',
  ];
  process.stdout.write(lines.join('\n'));
}
