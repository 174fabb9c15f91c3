// What one push costs, counted rather than timed, for this checkout or a baseline revision
// alike: pushes sent one at a time to a fresh server on a fresh database, and per push
//   - statements, and round trips to PostgreSQL (bench/statement-count.ts);
//   - rows written (bench/rows-written.ts);
//   - WAL bytes on SQLite (bench/sqlite-wal.ts);
//   - CPU of the server process and of PostgreSQL's (procfs), in microseconds: pushes one at a
//     time measure the work of each rather than how well it overlaps others.
// None needs the revision to count anything itself.
// The webhook worker is off, so its polling counts in none of them. A batch's figures are
// per lead it carries.
import { randomBytes } from 'node:crypto';
import { type BenchServer, pushPath, type ServerSpec, withBenchDatabase, withServer } from './bench-server.ts';
import type { BenchDialect } from './database.ts';
import { log } from './measure.ts';
import {
  type BodyFactory,
  fullBodies,
  mergeBodies,
  mergeTargetBodies,
  minimalBodies,
  webhookBodies,
} from './payloads.ts';
import { leadsPerRequest, PUSH_SCENARIOS, type PushScenario } from './push-scenarios.ts';
import { rowsWritten } from './rows-written.ts';
import type { ServerCode } from './server-code.ts';
import { postgresPids, processCpuSeconds, totalCpuSeconds } from './procfs.ts';
import { metricValue } from './server-metrics.ts';
import { watchWal } from './sqlite-wal.ts';
import { countStatementsOf } from './statement-count.ts';

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
  /** CPU of the server process (all its threads) per push, in microseconds. */
  readonly serverCpuMicros: number | null;
  /** CPU of every PostgreSQL process per push (other sessions' work included); null on SQLite. */
  readonly postgresCpuMicros: number | null;
}

/** Pushes sent before counting (a new process's first requests do more), then counted. */
export const WARM_UP = 5;
export const PUSHES = Number(process.env.BENCH_COUNT_PUSHES ?? '') || 20;
const MERGE_TARGETS = 5;
const COUNTING: ServerSpec = {
  pinning: { enabled: false },
  // A callback's address is refused on loopback otherwise; with the worker off none is sent.
  // The inbox projector off: its runs (every second on PostgreSQL) would fall between the
  // reads of the server's own count and the wire's, and count in one and not the other.
  env: { WEBHOOK_WORKER: 'false', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', INBOX_PROJECTOR: 'false' },
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
    const rowsBefore = await rowsWritten(database);
    const counter = await countStatementsOf(database);
    try {
      const counted = await withServer(database, code, counter.spec(COUNTING), async (server) => {
        const push = pusher(server, scenario);
        for (let i = 0; i < WARM_UP; i++) await push(next);
        const selfCount = () => metricValue(server.url, 'lead_intake_database_statements_total');
        const selfBefore = await selfCount();
        const before = await counter.read(server);
        const wal = dialect === 'sqlite' ? watchWal(database.env.DATA_DIR!) : undefined;
        const postgres = dialect === 'postgres' ? postgresPids() : [];
        const serverCpuBefore = processCpuSeconds(server.pid);
        const postgresCpuBefore = totalCpuSeconds(postgres);
        try {
          for (let i = 0; i < PUSHES; i++) await push(next);
          const serverCpuAfter = processCpuSeconds(server.pid);
          const postgresCpuAfter = totalCpuSeconds(postgres);
          const leads = PUSHES * leadsPerRequest(scenario);
          const walBytes = wal ? wal.bytes() / leads : null;
          const after = await counter.read(server);
          const selfAfter = await selfCount();
          return {
            walBytes,
            statements: (after.statements - before.statements) / leads,
            roundTrips: after.roundTrips === null ? null : (after.roundTrips - before.roundTrips!) / leads,
            serverStatements: selfBefore === null || selfAfter === null ? null : (selfAfter - selfBefore) / leads,
            serverCpuMicros:
              serverCpuBefore === null || serverCpuAfter === null
                ? null
                : ((serverCpuAfter - serverCpuBefore) * 1e6) / leads,
            postgresCpuMicros: dialect === 'postgres' ? ((postgresCpuAfter - postgresCpuBefore) * 1e6) / leads : null,
          };
        } finally {
          wal?.release();
        }
      });
      const rows = ((await rowsWritten(database)) - rowsBefore) / ((WARM_UP + PUSHES) * leadsPerRequest(scenario));
      const cost = { dialect, scenario, code: code.label, ...counted, rows };
      log(
        `${dialect} ${scenario.label} at ${code.label}: ${fmt(cost.statements)} statements, ${fmt(cost.roundTrips)} round trips, ` +
          `${fmt(cost.rows)} rows, ${fmt(cost.walBytes, 0)} WAL bytes, ${fmt(cost.serverCpuMicros, 0)} µs server CPU per push`,
      );
      return cost;
    } finally {
      await counter.close();
    }
  });
}

const fmt = (value: number | null, digits = 1) => (value === null ? 'n/a' : value.toFixed(digits));

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
    '| Database | Scenario | code | statements per push | PostgreSQL round trips | rows written | SQLite WAL bytes | server CPU µs | PostgreSQL CPU µs |',
    '|---|---|---|---:|---:|---:|---:|---:|---:|',
    ...costs.map(
      (c) =>
        `| ${c.dialect} | ${c.scenario.label}${leadsPerRequest(c.scenario) > 1 ? ', per lead' : ''} | ${c.code} | ${cell(c.statements)} | ${cell(c.roundTrips)} | ${cell(c.rows)} | ${cell(c.walBytes, 0)} | ${cell(c.serverCpuMicros, 0)} | ${cell(c.postgresCpuMicros, 0)} |`,
    ),
    '',
  ].join('\n');
}
