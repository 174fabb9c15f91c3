// Possible duplicates at scale (docs/api.md, "Possible duplicates"): BENCH_ONLY=duplicates.
// For each database, two distributions' worth of parties are written by SQL in the database
// itself (bench/duplicates-seed.ts: BENCH_DUPLICATES_PARTIES, default 1,000 and 1,000,000),
// each with the keys the service keeps for it: unique e-mails and telephones but for a few
// shared, a car for every other party, a birth date spread over 80 years (some 34 parties
// share each at a million) with a scattered name; every 50th party shares its e-mail with
// the one before, a duplicate to find. What one look-up reads is counted on each database
// (bench/duplicates-plan.ts: key entries, rows, PostgreSQL's buffers, the plan). A server serves
// each database, and the two are read in turn, round after round (BENCH_ROUNDS, at least 3),
// at BENCH_DUPLICATES_CONNECTIONS (10) connections over 200 parties; the report quotes each
// size's median p50 and their ratio, the target being at most 1.25x, beside the statements
// and keys one request reads, which noise cannot change.
import { openDatabase } from '../src/db/database.ts';
import { withBenchDatabase, withServer, type BenchServer } from './bench-server.ts';
import type { BenchDialect } from './database.ts';
import { type LookUpReads, lookUpReads } from './duplicates-plan.ts';
import { seedParties } from './duplicates-seed.ts';
import { describeMachine } from './machine.ts';
import { log } from './measure.ts';
import type { BenchOptions } from './options.ts';
import type { Pinning } from './processes.ts';
import { runReferenceLoad } from './reference.ts';
import type { ReferenceLoadResult } from './reference-load.ts';
import { CURRENT_CODE } from './server-code.ts';

const SIZES = (process.env.BENCH_DUPLICATES_PARTIES ?? '1000,1000000').split(',').map(Number);
const CONNECTIONS = Number(process.env.BENCH_DUPLICATES_CONNECTIONS ?? 10);
const SCOPES = ['leads:write', 'leads:read', 'parties:read', 'parties:update'];
/** Parties whose duplicates are read: at most this many, each the second of a pair sharing an e-mail. */
const SAMPLED = 200;

interface Size {
  readonly parties: number;
  readonly server: BenchServer;
  readonly paths: readonly string[];
  readonly statements: number;
  readonly items: number;
  readonly reads: LookUpReads;
}

interface SizeResult {
  readonly parties: number;
  readonly rounds: ReferenceLoadResult[];
  readonly statements: number;
  /** Items in the sampled answers, summed: the same at both sizes when the keys are. */
  readonly items: number;
  readonly seedSeconds: number;
  readonly reads: LookUpReads;
}

export async function duplicatesBenchmark(options: BenchOptions, pinning: Pinning): Promise<void> {
  const startedAt = new Date();
  const machine = await describeMachine(options);
  // Each database's section as soon as it is measured: seeding a million parties on a busy
  // machine takes long, and a run stopped later keeps what it found.
  for (const dialect of options.databases)
    process.stdout.write(
      render([{ dialect, sizes: await measure(dialect, options, pinning) }], options, machine, startedAt),
    );
}

/** Seeds each size, starts a server on each, then reads them in turn, round after round. */
async function measure(dialect: BenchDialect, options: BenchOptions, pinning: Pinning): Promise<SizeResult[]> {
  const seeded: Array<{ parties: number; seconds: number }> = [];
  const open = async (index: number, ready: Size[]): Promise<SizeResult[]> => {
    if (index === SIZES.length) return interleave(ready, seeded, options, pinning);
    const parties = SIZES[index]!;
    return withBenchDatabase(
      { engine: dialect, postgresUrl: options.postgresUrl, scopes: SCOPES },
      async (database) => {
        log(`${dialect}: writing ${parties} parties with their duplicate keys`);
        const started = performance.now();
        const { sampled, reads } = await seed(database.env, database.distributionId, parties);
        seeded.push({ parties, seconds: (performance.now() - started) / 1000 });
        return withServer(database, CURRENT_CODE, { pinning, env: { WEBHOOK_WORKER: 'false' } }, async (server) => {
          const paths = sampled.map(
            (id) => `/v1/api/distributions/${database.distributionId}/parties/${id}/duplicates`,
          );
          let items = 0;
          for (const path of paths) {
            const answer = await fetch(`${server.url}${path}`, {
              headers: { authorization: `apikey ${server.token}` },
            });
            if (answer.status !== 200) throw new Error(`${path} answered ${answer.status}`);
            items += ((await answer.json()) as { items: unknown[] }).items.length;
          }
          const statements = await statementsOf(server, paths[0]!);
          return open(index + 1, [...ready, { parties, server, paths, statements, items, reads }]);
        });
      },
    );
  };
  return open(0, []);
}

async function interleave(
  sizes: readonly Size[],
  seeded: ReadonlyArray<{ parties: number; seconds: number }>,
  options: BenchOptions,
  pinning: Pinning,
): Promise<SizeResult[]> {
  const rounds = sizes.map(() => [] as ReferenceLoadResult[]);
  for (let round = 0; round < Math.max(3, options.rounds); round++) {
    for (const [i, size] of sizes.entries()) {
      log(`${size.parties} parties: round ${round + 1}`);
      rounds[i]!.push(
        await runReferenceLoad(
          {
            url: size.server.url,
            token: size.server.token,
            paths: size.paths,
            connections: CONNECTIONS,
            warmupSeconds: options.warmupSeconds,
            durationSeconds: options.durationSeconds,
            serverPid: size.server.pid,
          },
          pinning,
        ),
      );
    }
  }
  return sizes.map((size, i) => ({
    parties: size.parties,
    rounds: rounds[i]!,
    statements: size.statements,
    items: size.items,
    reads: size.reads,
    seedSeconds: seeded.find((s) => s.parties === size.parties)?.seconds ?? 0,
  }));
}

/** The statements the server ran for one request (its /metrics count). */
async function statementsOf(server: BenchServer, path: string): Promise<number> {
  const count = async () =>
    Number(
      /^lead_intake_database_statements_total (\d+)/m.exec(await (await fetch(`${server.url}/metrics`)).text())?.[1],
    );
  const before = await count();
  await (await fetch(`${server.url}${path}`, { headers: { authorization: `apikey ${server.token}` } })).text();
  return (await count()) - before;
}

/** `count` parties written by SQL (bench/duplicates-seed.ts); the sampled ones' ids and what one look-up reads. */
async function seed(
  env: Record<string, string>,
  distributionId: string,
  count: number,
): Promise<{ sampled: string[]; reads: LookUpReads }> {
  const handle = openDatabase({
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: env.DATA_DIR ?? '',
    sqliteSynchronous: 'NORMAL',
  });
  try {
    const sampled = await seedParties(handle.db, handle.dialect, distributionId, count, SAMPLED);
    // Into the database file now: a server opening 2 GB of WAL reads it all before it serves.
    await handle.checkpointTruncate?.();
    return { sampled, reads: await lookUpReads(handle.db, handle.dialect, sampled) };
  } finally {
    await handle.close();
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function render(
  results: ReadonlyArray<{ dialect: BenchDialect; sizes: SizeResult[] }>,
  options: BenchOptions,
  machine: unknown,
  startedAt: Date,
): string {
  const fmt = (n: number, digits = 1) => n.toFixed(digits);
  const rows = results.flatMap(({ dialect, sizes }) =>
    sizes.map(
      (size) =>
        `| ${dialect} | ${size.parties.toLocaleString('en')} | ${fmt(median(size.rounds.map((r) => r.requestsPerSecond)), 0)} | ${fmt(median(size.rounds.map((r) => r.p50Ms)), 2)} | ${fmt(median(size.rounds.map((r) => r.p99Ms)), 2)} | ${size.rounds.reduce((sum, r) => sum + r.failures, 0)} | ${size.statements} | ${size.items} | ${fmt(size.reads.keyEntries, 1)} | ${fmt(size.reads.rowsReturned, 1)} | ${size.reads.buffers === null ? 'n/a' : fmt(size.reads.buffers, 1)} | ${fmt(size.seedSeconds, 0)} |`,
    ),
  );
  const ratios = results.map(({ dialect, sizes }) => {
    const [small, large] = [sizes[0]!, sizes.at(-1)!];
    const p50 = (size: SizeResult) => median(size.rounds.map((r) => r.p50Ms));
    const perRound = small.rounds.map((r, i) => fmt(large.rounds[i]!.p50Ms / r.p50Ms, 2)).join(', ');
    return `- ${dialect}: median p50 at ${large.parties.toLocaleString('en')} / at ${small.parties.toLocaleString('en')} parties: ${fmt(p50(large) / p50(small), 2)}x (per round: ${perRound})`;
  });
  return [
    `### Possible duplicates (BENCH_ONLY=duplicates, ${startedAt.toISOString()})`,
    '',
    `${CONNECTIONS} connections over ${SAMPLED} parties, ${options.warmupSeconds} s warm-up, ${options.durationSeconds} s measured per round, the sizes read in turn, ${Math.max(3, options.rounds)} rounds, medians; one server process per size. Machine: ${JSON.stringify(machine).slice(0, 300)}`,
    '',
    '| Database | Parties | requests/s | p50 ms | p99 ms | failures | statements per request | items in the sampled answers | key entries per look-up | rows per look-up | PostgreSQL buffers per look-up | seeding s |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows,
    '',
    ...ratios,
    '',
    ...results.flatMap(({ dialect, sizes }) => [
      `${dialect} plan at ${sizes.at(-1)!.parties.toLocaleString('en')} parties:`,
      '',
      ...sizes.at(-1)!.reads.plan.map((line) => `    ${line}`),
      '',
    ]),
  ].join('\n');
}
