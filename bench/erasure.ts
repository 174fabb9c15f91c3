// Erasure and retention under load (docs/design.md section 15): BENCH_ONLY=erasure. For
// each database:
//   1. Erasure: leads with 50 car revisions and 100 push-log entries each are built through
//      the API; pushes run at BENCH_CONNECTIONS for BENCH_DURATION seconds, once alone and
//      once while BENCH_ERASURES (5) of those leads are erased one after the other. Reports
//      each erasure's time and the push rate with and without them.
//   2. Retention: BENCH_RETENTION_ROWS (1,000,000) expired push-log rows are written
//      straight to the database; pushes run alone, then a server with RETENTION_PUSH_LOG set
//      starts its first pass while pushes run. Reports the push rate with and without the
//      pass, the rows the pass removed meanwhile, and the server's resident memory sampled
//      through the pass (flat when the batches keep nothing), over BENCH_RETENTION_SECONDS (60).
// Prints a markdown section for docs/benchmarks.md.
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { openDatabase } from '../src/db/database.ts';
import { type BenchServer, withBenchDatabase, withServer } from './bench-server.ts';
import type { BenchDatabase, BenchDialect } from './database.ts';
import type { LoadSpec } from './load.ts';
import { describeMachine, type Machine } from './machine.ts';
import { log, requireAllSucceeded, waitForQuiet } from './measure.ts';
import type { BenchOptions } from './options.ts';
import { type Pinning, runLoad } from './processes.ts';
import { loadSpecFor } from './push-run.ts';
import { CURRENT_CODE } from './server-code.ts';

const ERASURES = Number(process.env.BENCH_ERASURES ?? 5);
const RETENTION_ROWS = Number(process.env.BENCH_RETENTION_ROWS ?? 1_000_000);
/** Seconds of pushes measured with and without the retention pass: long enough to see memory stay flat. */
const RETENTION_SECONDS = Number(process.env.BENCH_RETENTION_SECONDS ?? 60);
const SCOPES = ['leads:write', 'leads:read', 'parties:read', 'parties:update', 'parties:erase'];
const LONG_AGO = '2020-01-01T00:00:00.000Z';

interface ErasureRun {
  readonly dialect: BenchDialect;
  /** One erasure with nothing else running. */
  readonly idleErasureMs: number;
  readonly erasureMs: number[];
  readonly pushesAlone: number;
  readonly pushesDuring: number;
  readonly retention: {
    readonly rows: number;
    readonly seedSeconds: number;
    readonly pushesAlone: number;
    readonly pushesDuring: number;
    readonly removedDuringWindow: number;
    readonly passSeconds: number | null;
    /** Server RSS: the peak of the run without retention, and the peaks of the two halves of the run with it. */
    readonly rssMiB: { readonly alone: number; readonly firstHalf: number; readonly secondHalf: number };
  };
}

export async function erasureBenchmark(options: BenchOptions, pinning: Pinning): Promise<void> {
  const startedAt = new Date();
  const machine = await describeMachine(options);
  const runs: ErasureRun[] = [];
  for (const dialect of options.databases) runs.push(await measure(dialect, options, pinning));
  process.stdout.write(render(runs, options, machine, startedAt));
}

function loadSpec(server: BenchServer, options: BenchOptions, durationSeconds = options.durationSeconds): LoadSpec {
  return loadSpecFor(server, 'minimal', options, {
    prefix: `erasure-${randomBytes(4).toString('hex')}`,
    durationSeconds,
  });
}

function measure(dialect: BenchDialect, options: BenchOptions, pinning: Pinning): Promise<ErasureRun> {
  return withBenchDatabase({ engine: dialect, postgresUrl: options.postgresUrl, scopes: SCOPES }, async (database) => {
    const serve = <T>(env: Record<string, string>, use: (server: BenchServer) => Promise<T>) =>
      withServer(database, CURRENT_CODE, { pinning, env: { WEBHOOK_WORKER: 'false', ...env } }, use);
    const erasures = await serve({}, async (server) => {
      log(`${dialect}: building ${ERASURES} leads with 50 revisions and 100 pushes each`);
      const targets: string[] = [];
      for (let i = 0; i <= ERASURES; i++) targets.push(await buildTarget(server.url, database));
      await waitForQuiet(`${dialect} erasure`, options);
      const idleErasureMs = await erase(server.url, database, targets.pop()!);
      log(`${dialect}: pushes alone`);
      const alone = await runLoad(loadSpec(server, options), pinning);
      requireAllSucceeded('pushes alone', alone, server.process);
      log(`${dialect}: pushes while erasing`);
      const during = runLoad(loadSpec(server, options), pinning);
      await new Promise((resolve) => setTimeout(resolve, (options.warmupSeconds + 1) * 1000));
      const erasureMs: number[] = [];
      for (const partyId of targets) erasureMs.push(await erase(server.url, database, partyId));
      const measured = await during;
      requireAllSucceeded('pushes while erasing', measured, server.process);
      return {
        idleErasureMs,
        erasureMs,
        pushesAlone: alone.requestsPerSecond,
        pushesDuring: measured.requestsPerSecond,
      };
    });

    log(`${dialect}: writing ${RETENTION_ROWS} expired push-log rows`);
    const seedStarted = performance.now();
    await seedExpiredPushes(database, RETENTION_ROWS);
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    await waitForQuiet(`${dialect} retention`, options);
    const retentionOff = await serve({}, async (server) => {
      log(`${dialect}: pushes alone (retention off)`);
      let rss = 0;
      const sampler = setInterval(() => {
        rss = Math.max(rss, rssMiB(server.pid));
      }, 200);
      const alone = await runLoad(loadSpec(server, options, RETENTION_SECONDS), pinning);
      clearInterval(sampler);
      requireAllSucceeded('pushes alone', alone, server.process);
      return { pushesPerSecond: alone.requestsPerSecond, rss };
    });
    // The first pass starts a second after the server: the pushes' warm-up covers that.
    const before = await expiredPushes(database);
    return serve({ RETENTION_PUSH_LOG: '30d', RETENTION_INTERVAL: '1h' }, async (server) => {
      log(`${dialect}: pushes while a retention pass runs`);
      const samples: number[] = [];
      const sampler = setInterval(() => samples.push(rssMiB(server.pid)), 200);
      const passStarted = performance.now();
      let passSeconds: number | null = null;
      let watching = true;
      // Looked for from another connection every second (one index probe): the pass is done when none is left.
      const watcher = (async () => {
        while (watching) {
          await new Promise((resolve) => setTimeout(resolve, 1000));
          if (!(await anyExpiredPush(database))) {
            passSeconds = (performance.now() - passStarted) / 1000;
            return;
          }
        }
      })();
      const during = await runLoad(loadSpec(server, options, RETENTION_SECONDS), pinning);
      requireAllSucceeded('pushes during retention', during, server.process);
      watching = false;
      await watcher;
      clearInterval(sampler);
      const removedDuringWindow = before - (await expiredPushes(database));
      return {
        dialect,
        ...erasures,
        retention: {
          rows: RETENTION_ROWS,
          seedSeconds,
          pushesAlone: retentionOff.pushesPerSecond,
          pushesDuring: during.requestsPerSecond,
          removedDuringWindow,
          passSeconds,
          rssMiB: {
            alone: retentionOff.rss,
            firstHalf: Math.max(...samples.slice(0, samples.length / 2)),
            secondHalf: Math.max(...samples.slice(samples.length / 2)),
          },
        },
      };
    });
  });
}

/** A lead with one car pushed 100 times: 50 pushes change the car (50 revisions), 50 change nothing. */
async function buildTarget(url: string, database: BenchDatabase): Promise<string> {
  const carId = randomUUID();
  const ref = `erasure-${randomUUID()}`;
  let partyId = '';
  for (let i = 0; i < 100; i++) {
    const kw = 60 + Math.min(i, 49);
    const response = await fetch(`${url}/v1/api/distributions/${database.distributionId}/leads/customers`, {
      method: 'POST',
      headers: { authorization: `apikey ${database.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        origin: 'bench',
        prospect: {
          first_name: 'Erase',
          last_name: 'Me',
          email: `${ref}@example.be`,
          external_refs: [{ external_ref: ref, external_ref_company: 'bench' }],
          risk_objects: { cars: [{ id: carId, brand: 'Volvo', model: 'V60', kw }] },
        },
      }),
    });
    if (response.status !== 200 && response.status !== 201) throw new Error(`push ${i}: ${response.status}`);
    partyId = ((await response.json()) as { party_id: string }).party_id;
  }
  return partyId;
}

async function erase(url: string, database: BenchDatabase, partyId: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${url}/v1/api/distributions/${database.distributionId}/parties/${partyId}`, {
    method: 'DELETE',
    headers: { authorization: `apikey ${database.token}` },
  });
  const ms = performance.now() - started;
  const receipt = (await response.json()) as { counts?: Record<string, number> };
  if (response.status !== 200 || receipt.counts?.risk_object_revisions !== 50 || receipt.counts.push_log !== 100)
    throw new Error(`erasure answered ${response.status}: ${JSON.stringify(receipt)}`);
  return ms;
}

function openHandle(database: BenchDatabase) {
  return openDatabase({
    databaseUrl: database.env.DATABASE_URL || undefined,
    dataDir: database.env.DATA_DIR ?? '',
    sqliteSynchronous: 'NORMAL',
  });
}

/** Expired push-log entries of one lead, with bodies the size of a small push (~300 bytes). */
async function seedExpiredPushes(database: BenchDatabase, rows: number): Promise<void> {
  const handle = openHandle(database);
  try {
    const db = handle.db;
    const party = randomUUID();
    const lead = randomUUID();
    const now = new Date().toISOString();
    await db
      .insertInto('parties')
      .values({
        id: party,
        distribution_id: database.distributionId,
        type: 'CUSTOMER',
        data: '{"first_name":"Old","last_name":"Pushes"}',
        match_key: null,
        version: 1,
        created_at: LONG_AGO,
        updated_at: now,
      })
      .execute();
    await db
      .insertInto('leads')
      .values({
        id: lead,
        distribution_id: database.distributionId,
        party_id: party,
        origin: null,
        backref: null,
        source: null,
        created_at: LONG_AGO,
        updated_at: now,
        status: 'new',
        lost_reason: null,
        assignee_id: null,
        status_changed_at: LONG_AGO,
        search_words: '',
      })
      .execute();
    const payload = JSON.stringify({
      origin: 'bench',
      prospect: {
        first_name: 'Old',
        last_name: 'Pushes',
        email: 'old.pushes@example.be',
        telephonenr: '+32 9 000 00 00',
      },
      padding: 'x'.repeat(150),
    });
    const BATCH = 1000;
    for (let from = 0; from < rows; from += BATCH * 10) {
      await db.transaction().execute(async (trx) => {
        for (let at = from; at < Math.min(rows, from + BATCH * 10); at += BATCH) {
          const count = Math.min(BATCH, rows - at);
          await trx
            .insertInto('lead_pushes')
            .values(
              Array.from({ length: count }, (_, i) => ({
                id: randomUUID(),
                lead_id: lead,
                distribution_id: database.distributionId,
                received_at: new Date(Date.parse(LONG_AGO) + (at + i) * 1000).toISOString(),
                status: 200,
                caller: 'token:bench',
                origin: 'bench',
                kind: 'CUSTOMER' as const,
                payload,
              })),
            )
            .execute();
        }
      });
    }
  } finally {
    await handle.close();
  }
}

async function anyExpiredPush(database: BenchDatabase): Promise<boolean> {
  const handle = openHandle(database);
  try {
    const row = await handle.db
      .selectFrom('lead_pushes')
      .select('id')
      .where('received_at', '<', '2021-01-01T00:00:00.000Z')
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  } finally {
    await handle.close();
  }
}

async function expiredPushes(database: BenchDatabase): Promise<number> {
  const handle = openHandle(database);
  try {
    const row = await handle.db
      .selectFrom('lead_pushes')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('received_at', '<', '2021-01-01T00:00:00.000Z')
      .executeTakeFirstOrThrow();
    return Number(row.n);
  } finally {
    await handle.close();
  }
}

function rssMiB(pid: number): number {
  try {
    return Number(/^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;
  } catch {
    return 0;
  }
}

function render(runs: readonly ErasureRun[], options: BenchOptions, machine: Machine, startedAt: Date): string {
  const percent = (during: number, alone: number) => `${((100 * during) / alone).toFixed(0)} %`;
  const ms = (values: readonly number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return `${sorted[Math.floor(sorted.length / 2)]!.toFixed(0)} ms (${sorted[0]!.toFixed(0)}-${sorted.at(-1)!.toFixed(0)})`;
  };
  const lines = [
    '## Erasure and retention (`BENCH_ONLY=erasure`)',
    '',
    `Measured ${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC on ${machine.cpu} (${machine.cores} cores, load average ${machine.loadAverage} at the start), ${machine.revision}; pushes of scenario (a) at ` +
      `${options.connections} connections, ${options.warmupSeconds} s warm-up and ${options.durationSeconds} s measured ` +
      'per run, server and load generator on separate cores.',
    '',
    `Erasing a lead with 50 car revisions and 100 push-log entries (${ERASURES} such leads, erased one after the ` +
      'other while the pushes ran):',
    '',
    '| database | erasure alone | erasure under pushes, median (min-max) | pushes alone | pushes while erasing | kept |',
    '|---|---|---|---|---|---|',
    ...runs.map(
      (run) =>
        `| ${run.dialect} | ${run.idleErasureMs.toFixed(0)} ms | ${ms(run.erasureMs)} | ${run.pushesAlone.toFixed(0)}/s | ${run.pushesDuring.toFixed(0)}/s | ${percent(run.pushesDuring, run.pushesAlone)} |`,
    ),
    '',
    `A retention pass over ${runs[0]?.retention.rows.toLocaleString('en') ?? 0} expired push-log rows ` +
      `(\`RETENTION_PUSH_LOG=30d\`, batches of 500) while pushes run, ${RETENTION_SECONDS} s measured with and without it:`,
    '',
    '| database | rows written in | pushes alone | pushes during the pass | kept | rows removed in the window | pass | server RSS peak: alone / pass, first half / second half |',
    '|---|---|---|---|---|---|---|---|',
    ...runs.map(({ dialect, retention: r }) => {
      const pass = r.passSeconds === null ? 'still running' : `${r.passSeconds.toFixed(1)} s`;
      return (
        `| ${dialect} | ${r.seedSeconds.toFixed(0)} s | ${r.pushesAlone.toFixed(0)}/s | ${r.pushesDuring.toFixed(0)}/s | ` +
        `${percent(r.pushesDuring, r.pushesAlone)} | ${r.removedDuringWindow.toLocaleString('en')} | ${pass} | ` +
        `${r.rssMiB.alone.toFixed(0)} / ${r.rssMiB.firstHalf.toFixed(0)} / ${r.rssMiB.secondHalf.toFixed(0)} MiB |`
      );
    }),
    '',
  ];
  return `${lines.join('\n')}\n`;
}
