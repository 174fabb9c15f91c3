// What `/app/sources` and `GET …/stats/sources` cost at scale (docs/design.md section 13): a
// distribution of BENCH_SOURCES_LEADS (1,000,000) leads received over a year from five origins
// through three senders (a fifth of them sent twice), their statuses and first status
// changes set, written straight into a fresh database of each dialect by SQL (a push at a
// time would take an hour here) and folded into the sums per day and source by the inbox
// projector, as a service starting on such a database would (timed, with its longest step), then the statistics of a week, of the first page's twelve
// weeks and of a whole year read by SourceStatsReader, the service both routes call, 10 at a
// time (BENCH_SOURCES_CONNECTIONS), BENCH_SOURCES_REQUESTS (200) per period: p50 and p99 in ms.
//   node bench/sources.ts
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { insertDistribution } from '../src/distributions/distribution.repository.ts';
import { createTransactionRunner, type TransactionRunner } from '../src/db/transaction-runner.ts';
import { InboxProjection, SourceStatsReader } from '../src/party/index.ts';

const LEADS = Number(process.env.BENCH_SOURCES_LEADS ?? 1_000_000);
const CONNECTIONS = Number(process.env.BENCH_SOURCES_CONNECTIONS ?? 10);
const REQUESTS = Number(process.env.BENCH_SOURCES_REQUESTS ?? 200);
const POSTGRES = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const DAY_MS = 86_400_000;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
// The year of leads ends two days ago (each lead's second push comes a day after it), so
// every push is before the projector's first horizon, as in a service that has run a while:
// the pushes past the mark are the last second's, not two days'.
const TODAY = Date.parse(`${day(Date.now())}T00:00:00.000Z`);
const START = new Date(TODAY - 367 * DAY_MS).toISOString();
const PERIODS = [
  ['a week', day(TODAY - 7 * DAY_MS), day(TODAY - DAY_MS)],
  ['twelve weeks', day(TODAY - 84 * DAY_MS), day(TODAY - DAY_MS)],
  ['a year', day(TODAY - 366 * DAY_MS), day(TODAY - DAY_MS)],
] as const;

/** Parties, leads and their pushes: lead i received at START + i/LEADS of a year. */
async function fill(handle: DatabaseHandle, distributionId: string): Promise<void> {
  const { db, dialect } = handle;
  const days = 365 / LEADS;
  const series =
    dialect === 'sqlite'
      ? `with recursive n(i) as (select 0 union all select i + 1 from n where i < ${LEADS - 1}),
         t(i, at) as (select i, strftime('%Y-%m-%dT%H:%M:%fZ', julianday('${START}') + i * ${days}) from n)`
      : `with t(i, at) as (select i, to_char((timestamptz '${START}' + i * interval '${days * 86_400} seconds') at time zone 'UTC',
           'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') from generate_series(0, ${LEADS - 1}) as i)`;
  const id = (prefix: string) =>
    dialect === 'sqlite' ? `printf('${prefix}%09d', i)` : `'${prefix}' || lpad(i::text, 9, '0')`;
  const later = (hours: string) =>
    dialect === 'sqlite'
      ? `strftime('%Y-%m-%dT%H:%M:%fZ', julianday(at) + (${hours}) / 24.0)`
      : `to_char((cast(at as timestamptz) + (${hours}) * interval '1 hour') at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  const d = `'${distributionId}'`;
  const status = `case i % 10 when 5 then 'contacted' when 6 then 'quoted' when 7 then 'won' when 8 then 'lost' when 9 then 'contacted' else 'new' end`;
  await sql
    .raw(`${series} insert into parties (id, distribution_id, type, data, match_key, version, created_at, updated_at)
      select ${id('p')}, ${d}, 'CUSTOMER', '{}', null, 1, at, at from t`)
    .execute(db);
  await sql
    .raw(`${series} insert into leads (id, distribution_id, party_id, origin, created_at, updated_at, status, status_changed_at, first_status_at)
      select ${id('l')}, ${d}, ${id('p')}, 'origin-' || (i % 5), at, at, ${status}, at,
        case when i % 10 >= 5 then ${later('i % 48')} end from t`)
    .execute(db);
  await sql
    .raw(`${series} insert into lead_pushes (id, lead_id, distribution_id, received_at, status, caller, origin, kind, payload)
      select ${id('c')}, ${id('l')}, ${d}, at, 201, 'token:' || (i % 3), 'origin-' || (i % 5), 'CUSTOMER', '{}' from t
      union all select ${id('m')}, ${id('l')}, ${d}, ${later('24')}, 200, 'token:' || (i % 3), 'origin-' || (i % 5), 'CUSTOMER', '{}'
        from t where i % 5 = 0`)
    .execute(db);
  await sql`analyze`.execute(db);
}

/**
 * The projector's first run over the bulk-written leads and pushes: the counts, the sums (and
 * on SQLite the words), in steps of a transaction each; how many, and the longest (what a push
 * or a status change may wait for).
 */
async function project(label: string, handle: DatabaseHandle): Promise<void> {
  const started = performance.now();
  const runner = createTransactionRunner(handle);
  const steps: number[] = [];
  const timed: TransactionRunner = {
    async run(work) {
      const begun = performance.now();
      try {
        return await runner.run(work);
      } finally {
        steps.push(performance.now() - begun);
      }
    },
    close: () => runner.close(),
  };
  await new InboxProjection({ database: handle, transactions: timed }).runOnce();
  const projected = performance.now() - started;
  // PostgreSQL: vacuumed too, as autovacuum leaves a service that has run a while. Left to
  // itself, autovacuum starts on the million fresh rows during the reads (and their first
  // reads write hint bits), which measures the bulk load rather than a read.
  await sql.raw(handle.dialect === 'postgres' ? 'vacuum analyze' : 'analyze').execute(handle.db);
  const { rows } = await sql<{ n: number | string }>`select count(*) as n from source_counts`.execute(handle.db);
  steps.sort((a, b) => a - b);
  console.error(
    `[sources] ${label}: projected in ${(projected / 1000).toFixed(0)} s, ${steps.length} transactions ` +
      `(p50 ${percentile(steps, 50).toFixed(0)} ms, longest ${steps.at(-1)?.toFixed(0)} ms), ${Number(rows[0]!.n)} rows of sums`,
  );
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function measure(label: string, handle: DatabaseHandle, distributionId: string) {
  const reader = new SourceStatsReader({ database: handle });
  const lines: string[] = [];
  for (const [name, from, to] of PERIODS) {
    // Warm every connection of the pool (PostgreSQL plans a prepared statement on each one's
    // first use), as a service that has served a while has.
    await Promise.all(Array.from({ length: CONNECTIONS }, () => reader.read(distributionId, from, to)));
    const times: number[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (next++ < REQUESTS) {
          const started = performance.now();
          await reader.read(distributionId, from, to);
          times.push(performance.now() - started);
        }
      }),
    );
    times.sort((a, b) => a - b);
    lines.push(
      `| ${label} | ${name} | ${percentile(times, 50).toFixed(0)} | ${percentile(times, 99).toFixed(0)} | ${times.length} |`,
    );
  }
  return lines;
}

const rows: string[] = [];
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lead-intake-sources-bench-'));
try {
  const sqlite = openDatabase({ databaseUrl: undefined, dataDir, sqliteSynchronous: 'NORMAL' });
  await migrateToLatest(sqlite.db);
  const local = await insertDistribution(sqlite.db, 'Sources bench');
  let started = performance.now();
  await fill(sqlite, local.id);
  console.error(`[sources] SQLite: ${LEADS} leads written in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  await project('SQLite', sqlite);
  rows.push(...(await measure('SQLite', sqlite, local.id)));
  await sqlite.close();

  const admin = new pg.Client({ connectionString: POSTGRES });
  await admin.connect();
  const name = `lead_intake_sources_bench_${process.pid}`;
  await admin.query(`create database ${name}`);
  try {
    const url = new URL(POSTGRES);
    url.pathname = `/${name}`;
    const postgres = openDatabase({ databaseUrl: url.toString(), dataDir, sqliteSynchronous: 'NORMAL' });
    await migrateToLatest(postgres.db);
    const remote = await insertDistribution(postgres.db, 'Sources bench');
    started = performance.now();
    await fill(postgres, remote.id);
    console.error(
      `[sources] PostgreSQL: ${LEADS} leads written in ${((performance.now() - started) / 1000).toFixed(0)} s`,
    );
    await project('PostgreSQL', postgres);
    rows.push(...(await measure('PostgreSQL', postgres, remote.id)));
    await postgres.close();
  } finally {
    await admin.query(`drop database if exists ${name}`);
    await admin.end();
  }
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
}
console.log(
  `Sources statistics at ${LEADS.toLocaleString('en')} leads, ${CONNECTIONS} at a time, load ${os.loadavg()[0]!.toFixed(1)}:\n`,
);
console.log('| database | period | p50 ms | p99 ms | requests |\n|---|---|---|---|---|');
console.log(rows.join('\n'));
