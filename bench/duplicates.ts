// Possible duplicates at scale (docs/api.md, "Possible duplicates"): BENCH_ONLY=duplicates.
// For each database, two distributions' worth of parties are written straight to the
// database with the columns the migrations create (BENCH_DUPLICATES_PARTIES, default 1,000
// and 1,000,000), each with the keys the service keeps for it (duplicate-keys.ts): a unique
// e-mail and telephone, a car for every other party, a birth date spread over 80 years (so
// some 34 parties share each at a million) and a name from a vocabulary; every 50th party
// shares its e-mail (in capitals) with the one before, a duplicate to find. A server serves
// each database, and the two are read in turn, round after round (BENCH_ROUNDS, at least 3),
// at BENCH_DUPLICATES_CONNECTIONS (10) connections over 200 parties; the report quotes each
// size's median p50 and their ratio, the target being at most 1.25x, beside the statements
// and keys one request reads, which noise cannot change.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { openDatabase } from '../src/db/database.ts';
import { withBenchDatabase, withServer, type BenchServer } from './bench-server.ts';
import type { BenchDialect } from './database.ts';
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
const FIRST_NAMES = ['Els', 'Jan', 'An', 'Pieter', 'Sofie', 'Lukas', 'Marie', 'Tom', 'Lotte', 'Wout'];
/**
 * Eight letters from the party's number, scattered (a multiplicative hash), so two parties'
 * names are rarely within two edits: a shared birth date is then a close name only where the
 * seed means one, at both sizes alike.
 */
const surname = (n: number) => {
  let x = (Math.imul(n + 1, 2654435761) >>> 0) + n * 7;
  let name = '';
  for (let i = 0; i < 8; i++) {
    name += String.fromCharCode(97 + (x % 26));
    x = Math.floor(x / 26) + (i + 1) * 131;
  }
  return name;
};
const DAYS = 80 * 365;
const BIRTH_BASE = Date.parse('1940-01-01T00:00:00Z');
/** Parties whose duplicates are read: at most this many, each the second of a pair sharing an e-mail. */
const SAMPLED = 200;

interface Size {
  readonly parties: number;
  readonly server: BenchServer;
  readonly paths: readonly string[];
  readonly statements: number;
  readonly items: number;
}

interface SizeResult {
  readonly parties: number;
  readonly rounds: ReferenceLoadResult[];
  readonly statements: number;
  /** Items in the sampled answers, summed: the same at both sizes when the keys are. */
  readonly items: number;
  readonly seedSeconds: number;
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
        const sampled = await seed(database.env, database.distributionId, parties);
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
          return open(index + 1, [...ready, { parties, server, paths, statements, items }]);
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

/** `count` parties with their leads and duplicate keys, straight into the tables; the ids of the sampled ones. */
async function seed(env: Record<string, string>, distributionId: string, count: number): Promise<string[]> {
  const handle = openDatabase({
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: env.DATA_DIR ?? '',
    sqliteSynchronous: 'NORMAL',
  });
  const sampled: string[] = [];
  // A multiple of 50, so every sampled party is one with a twin (n % 50 === 1) at any size.
  const every = Math.max(50, Math.floor(count / SAMPLED / 50) * 50);
  try {
    const db = handle.db;
    const at = '2026-01-01T00:00:00.000Z';
    for (let from = 0; from < count; from += 1000) {
      const parties = [];
      const leads = [];
      const keys = [];
      for (let n = from; n < Math.min(count, from + 1000); n++) {
        const partyId = randomUUID();
        if (n % every === 1 && sampled.length < SAMPLED) sampled.push(partyId);
        const first = FIRST_NAMES[n % FIRST_NAMES.length]!;
        const last = surname(n);
        // Every 50th party shares its e-mail with the one before: found as a duplicate.
        const owner = n % 50 === 1 ? n - 1 : n;
        const email = `${FIRST_NAMES[owner % FIRST_NAMES.length]!.toLowerCase()}.${surname(owner)}.${owner}@example.be`;
        const telephone = `+3247${String(n).padStart(7, '0')}`;
        const birth = new Date(BIRTH_BASE + ((n * 7919) % DAYS) * 86_400_000).toISOString().slice(0, 10);
        const data = { first_name: first, last_name: last, email, telephonenr: telephone, birth };
        parties.push({
          id: partyId,
          distribution_id: distributionId,
          type: 'CUSTOMER' as const,
          data: JSON.stringify(data),
          match_key: null,
          version: 1,
          created_at: at,
          updated_at: at,
        });
        leads.push({
          id: randomUUID(),
          distribution_id: distributionId,
          party_id: partyId,
          origin: 'partner-portal',
          backref: null,
          source: null,
          created_at: at,
          updated_at: at,
          status: 'new' as const,
          lost_reason: null,
          assignee_id: null,
          status_changed_at: at,
          search_words: `${first} ${last}`.toLowerCase(),
        });
        const key = (kind: 'email' | 'telephone' | 'birth' | 'vin', value: string, name: string | null = null) => ({
          distribution_id: distributionId,
          kind,
          key: value,
          party_id: partyId,
          name,
        });
        keys.push(
          key('email', email),
          key('telephone', telephone),
          key('birth', birth, `${first} ${last}`.toLowerCase()),
        );
        if (n % 2 === 0) keys.push(key('vin', `WVWZZZ1JZ${String(n).padStart(8, '0')}`));
      }
      await db.insertInto('parties').values(parties).execute();
      await db.insertInto('leads').values(leads).execute();
      await db.insertInto('party_duplicate_keys').values(keys).execute();
      if (from % 100_000 === 0 && from > 0) log(`  ${from} parties`);
    }
    // Statistics as autovacuum would gather them on a live database.
    if (handle.dialect === 'postgres') await sql`analyze`.execute(db);
    return sampled;
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
        `| ${dialect} | ${size.parties.toLocaleString('en')} | ${fmt(median(size.rounds.map((r) => r.requestsPerSecond)), 0)} | ${fmt(median(size.rounds.map((r) => r.p50Ms)), 2)} | ${fmt(median(size.rounds.map((r) => r.p99Ms)), 2)} | ${size.rounds.reduce((sum, r) => sum + r.failures, 0)} | ${size.statements} | ${size.items} | ${fmt(size.seedSeconds, 0)} |`,
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
    '| Database | Parties | requests/s | p50 ms | p99 ms | failures | statements per request | items in the sampled answers | seeding s |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows,
    '',
    ...ratios,
    '',
  ].join('\n');
}
