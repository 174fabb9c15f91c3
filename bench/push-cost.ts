// What one push costs, counted rather than timed, for this checkout or a baseline revision
// alike: pushes sent one at a time to a fresh server on a fresh database, and per push
//   - statements: on SQLite counted in node:sqlite's calls by a module loaded into the
//     server (bench/sqlite-statement-counter.ts), on PostgreSQL on the wire
//     (bench/pg-wire-counter.ts): neither needs the revision to count for itself;
//   - round trips to PostgreSQL, from the wire too;
//   - rows written: on PostgreSQL inserted + updated + deleted by the table statistics
//     (triggers' rows included), on SQLite the rows added to every table (the word index's
//     own tables included; an update adds none);
//   - WAL bytes on SQLite (bench/sqlite-wal.ts).
// The webhook worker is off, so its polling counts in none of them. A batch's figures are
// per lead it carries.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { type BenchServer, pushPath, type ServerSpec, withBenchDatabase, withServer } from './bench-server.ts';
import { type BenchDatabase, type BenchDialect, SQLITE_FILE } from './database.ts';
import { log } from './measure.ts';
import {
  type BodyFactory,
  fullBodies,
  mergeBodies,
  mergeTargetBodies,
  minimalBodies,
  webhookBodies,
} from './payloads.ts';
import { startWireCounter } from './pg-wire-counter.ts';
import { ROOT } from './processes.ts';
import { PUSH_SCENARIOS, type PushScenario } from './push-scenarios.ts';
import type { ServerCode } from './server-code.ts';
import { metricValue } from './server-metrics.ts';
import { watchWal } from './sqlite-wal.ts';

export interface PushCost {
  readonly dialect: BenchDialect;
  readonly scenario: PushScenario;
  readonly code: string;
  /** Per push; null where this code or database cannot tell. */
  readonly statements: number | null;
  readonly roundTrips: number | null;
  readonly rows: number | null;
  readonly walBytes: number | null;
  /** The server's own count of statements per push, where it keeps one: a check on the count from outside. */
  readonly serverStatements: number | null;
}

/** Pushes sent before counting (a new process's first requests do more), then counted. */
export const WARM_UP = 5;
export const PUSHES = 20;
const MERGE_TARGETS = 5;
const COUNTING: ServerSpec = {
  pinning: { enabled: false },
  // A callback's address is refused on loopback otherwise; with the worker off none is sent.
  env: { WEBHOOK_WORKER: 'false', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' },
};

function bodiesOf(scenario: PushScenario, prefix: string): BodyFactory {
  switch (scenario.scenario) {
    case 'full':
      return fullBodies(prefix);
    case 'merge':
      return mergeBodies(prefix, MERGE_TARGETS);
    case 'webhook':
      return webhookBodies(prefix, 'http://127.0.0.1:9/hooks');
    default:
      return minimalBodies(prefix);
  }
}

/** Leads one request of the scenario carries. */
const leadsPerRequest = (scenario: PushScenario) =>
  scenario.request && 'batchSize' in scenario.request ? scenario.request.batchSize : 1;

/** Sends the scenario's requests: single pushes, keyed ones, or batches of its bodies. */
function pusher(
  server: BenchServer,
  scenario: PushScenario = PUSH_SCENARIOS[0]!,
): (next: BodyFactory) => Promise<void> {
  let sent = 0;
  const batch = leadsPerRequest(scenario) > 1;
  return async (next) => {
    const key = scenario.request && 'idempotency' in scenario.request ? { 'idempotency-key': `count-${sent}` } : {};
    sent++;
    const body = batch
      ? `{"leads":[${Array.from({ length: leadsPerRequest(scenario) }, () => `{"type":"CUSTOMER",${next().slice(1)}`).join(',')}]}`
      : next();
    const response = await fetch(`${server.url}${pushPath(server.distributionId, batch ? 'batch' : 'customers')}`, {
      method: 'POST',
      headers: { authorization: `apikey ${server.token}`, 'content-type': 'application/json', ...key },
      body,
    });
    if (!response.ok) throw new Error(`push answered ${response.status}: ${await response.text()}`);
  };
}

export async function countPushCost(
  code: ServerCode,
  dialect: BenchDialect,
  scenario: PushScenario,
  postgresUrl: string,
): Promise<PushCost> {
  const prefix = `count-${randomBytes(4).toString('hex')}`;
  const next = bodiesOf(scenario, prefix);
  return withBenchDatabase({ engine: dialect, postgresUrl, code }, async (database) => {
    if (scenario.scenario === 'merge') {
      // The leads merged into, by a server of their own: its exit flushes PostgreSQL's statistics.
      await withServer(database, code, COUNTING, async (server) => {
        const targets = mergeTargetBodies(prefix);
        const push = pusher(server);
        for (let i = 0; i < MERGE_TARGETS; i++) await push(targets);
      });
    }
    const rowsBefore = await rowsIn(database);
    const wire = dialect === 'postgres' ? await startWireCounter(database.env.DATABASE_URL!) : undefined;
    const countsFile = path.join(os.tmpdir(), `lead-intake-statements-${randomBytes(6).toString('hex')}.txt`);
    try {
      const spec: ServerSpec = wire
        ? { ...COUNTING, env: { ...COUNTING.env, DATABASE_URL: wire.url } }
        : {
            ...COUNTING,
            env: { ...COUNTING.env, BENCH_STATEMENT_COUNTS: countsFile },
            nodeArgs: ['--import', path.join(ROOT, 'bench/sqlite-statement-counter.ts')],
          };
      const counted = await withServer(database, code, spec, async (server) => {
        const push = pusher(server, scenario);
        const statementsSoFar = async () =>
          wire ? wire.counts().statements : await sqliteStatementsSoFar(server.pid, countsFile);
        for (let i = 0; i < WARM_UP; i++) await push(next);
        const selfCount = () => metricValue(server.url, 'lead_intake_database_statements_total');
        const selfBefore = await selfCount();
        const statementsBefore = await statementsSoFar();
        const roundTripsBefore = wire?.counts().roundTrips;
        const wal = dialect === 'sqlite' ? watchWal(database.env.DATA_DIR!) : undefined;
        try {
          for (let i = 0; i < PUSHES; i++) await push(next);
          const leads = PUSHES * leadsPerRequest(scenario);
          const walBytes = wal ? wal.bytes() / leads : null;
          const statements = ((await statementsSoFar()) - statementsBefore) / leads;
          const roundTrips = wire ? (wire.counts().roundTrips - roundTripsBefore!) / leads : null;
          const selfAfter = await selfCount();
          const serverStatements = selfBefore === null || selfAfter === null ? null : (selfAfter - selfBefore) / leads;
          return { walBytes, statements, roundTrips, serverStatements };
        } finally {
          wal?.release();
        }
      });
      const rows = ((await rowsIn(database)) - rowsBefore) / ((WARM_UP + PUSHES) * leadsPerRequest(scenario));
      const cost = { dialect, scenario, code: code.label, ...counted, rows };
      log(
        `${dialect} ${scenario.label} at ${code.label}: ${fmt(cost.statements)} statements, ${fmt(cost.roundTrips)} round trips, ` +
          `${fmt(cost.rows)} rows, ${fmt(cost.walBytes, 0)} WAL bytes per push`,
      );
      return cost;
    } finally {
      await wire?.close();
      fs.rmSync(countsFile, { force: true });
    }
  });
}

/** Asks the server's statement counter for its count (SIGUSR2) and waits for the line it appends. */
async function sqliteStatementsSoFar(pid: number, file: string): Promise<number> {
  const lines = () => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);
  const before = lines().length;
  process.kill(pid, 'SIGUSR2');
  const deadline = Date.now() + 10_000;
  while (lines().length === before) {
    if (Date.now() > deadline)
      throw new Error('the server wrote no statement count (bench/sqlite-statement-counter.ts)');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return Number(lines().at(-1));
}

const fmt = (value: number | null, digits = 1) => (value === null ? 'n/a' : value.toFixed(digits));

/** Rows so far: PostgreSQL's table statistics once every server connection has gone (each flushes its own as it exits), or SQLite's rows. */
async function rowsIn(database: BenchDatabase): Promise<number> {
  if (database.dialect === 'sqlite') {
    const db = new DatabaseSync(path.join(database.env.DATA_DIR!, SQLITE_FILE), { readOnly: true });
    try {
      const tables = db
        .prepare("select name from sqlite_master where type = 'table' and sql not like 'CREATE VIRTUAL TABLE%'")
        .all() as Array<{ name: string }>;
      return tables.reduce(
        (sum, { name }) =>
          sum +
          Number((db.prepare(`select count(*) as n from "${name.replaceAll('"', '""')}"`).get() as { n: number }).n),
        0,
      );
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: database.env.DATABASE_URL });
  await client.connect();
  try {
    const deadline = Date.now() + 10_000;
    const others =
      'select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()';
    while ((await client.query<{ n: number }>(others)).rows[0]!.n > 0) {
      if (Date.now() > deadline)
        throw new Error('connections to the bench database stayed open after its server stopped');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const { rows } = await client.query<{ n: string }>(
      'select coalesce(sum(n_tup_ins + n_tup_upd + n_tup_del), 0) as n from pg_stat_user_tables',
    );
    return Number(rows[0]!.n);
  } finally {
    await client.end();
  }
}

export async function countPushCosts(
  codes: readonly ServerCode[],
  dialects: readonly BenchDialect[],
  scenarios: readonly PushScenario[],
  postgresUrl: string,
): Promise<PushCost[]> {
  const costs: PushCost[] = [];
  for (const dialect of dialects)
    for (const scenario of scenarios)
      for (const code of codes)
        if (!scenario.needs || !code.lacks(scenario.needs))
          costs.push(await countPushCost(code, dialect, scenario, postgresUrl));
  return costs;
}

export function renderPushCosts(costs: readonly PushCost[]): string {
  const cell = (value: number | null, digits = 1) =>
    value === null ? 'n/a' : value.toLocaleString('en-US', { maximumFractionDigits: digits });
  return [
    '| Database | Scenario | code | statements per push | PostgreSQL round trips | rows written | SQLite WAL bytes |',
    '|---|---|---|---:|---:|---:|---:|',
    ...costs.map(
      (c) =>
        `| ${c.dialect} | ${c.scenario.label}${leadsPerRequest(c.scenario) > 1 ? ', per lead' : ''} | ${c.code} | ${cell(c.statements)} | ${cell(c.roundTrips)} | ${cell(c.rows)} | ${cell(c.walBytes, 0)} |`,
    ),
    '',
  ].join('\n');
}
