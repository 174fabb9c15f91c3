// One figure of a push scenario (or the listing): a fresh server of the code measured on
// a fresh database (or on a copy of a seeded one), the load generator in its own process
// for warm-up + duration, every answer checked to be 2xx.
import { randomBytes } from 'node:crypto';
import { type BenchServer, pushPath, withBenchDatabase, withServer } from './bench-server.ts';
import type { BenchDatabase, BenchDialect } from './database.ts';
import type { LoadSpec } from './load.ts';
import { requireAllSucceeded, type Measurement } from './measure.ts';
import type { BenchOptions } from './options.ts';
import type { Scenario } from './payloads.ts';
import { type Pinning, runLoad } from './processes.ts';
import { BATCH_CONNECTIONS, type PushScenario } from './push-scenarios.ts';
import { CURRENT_CODE, type ServerCode } from './server-code.ts';

export interface LeadRun {
  readonly label: string;
  readonly dialect: BenchDialect;
  readonly scenario: Scenario;
  /** This checkout unless given (BENCH_BASELINE's revision). */
  readonly code?: ServerCode;
  readonly env?: Record<string, string>;
  /** A database already holding leads (a copy of the seeded template); a fresh one otherwise. */
  readonly database?: () => Promise<BenchDatabase>;
  readonly nodeArgs?: string[];
  /** Keyed requests, or batches (bench/push-scenarios.ts). */
  readonly request?: PushScenario['request'];
}

/** The load generator's settings for one scenario against one server. */
export function loadSpecFor(
  server: BenchServer,
  scenario: Scenario,
  options: BenchOptions,
  extra: Partial<LoadSpec> = {},
): LoadSpec {
  return {
    url: server.url,
    path: server.pushPath,
    token: server.token,
    scenario,
    prefix: `${scenario}-${randomBytes(4).toString('hex')}`,
    connections: options.connections,
    warmupSeconds: options.warmupSeconds,
    durationSeconds: options.durationSeconds,
    mergeLeads: options.mergeLeads,
    serverPid: server.pid,
    ...extra,
  };
}

/** What a keyed or batched scenario changes in the load generator's settings. */
export function requestSpec(server: BenchServer, request: LeadRun['request']): Partial<LoadSpec> {
  if (request === undefined) return {};
  if ('idempotency' in request) return { idempotency: request.idempotency };
  if ('merges' in request) return { merges: request.merges };
  return {
    path: pushPath(server.distributionId, 'batch'),
    batchSize: request.batchSize,
    connections: BATCH_CONNECTIONS,
  };
}

export async function measureLeads(run: LeadRun, options: BenchOptions, pinning: Pinning): Promise<Measurement> {
  const code = run.code ?? CURRENT_CODE;
  return withBenchDatabase(
    { engine: run.dialect, postgresUrl: options.postgresUrl, code, ...(run.database && { database: run.database }) },
    async (database) => {
      const storedLeads = run.database ? await database.countLeads() : 0;
      const measured = await withServer(
        database,
        code,
        { pinning, ...(run.env && { env: run.env }), ...(run.nodeArgs && { nodeArgs: run.nodeArgs }) },
        async (server): Promise<Measurement> => {
          const load = await runLoad(
            loadSpecFor(server, run.scenario, options, requestSpec(server, run.request)),
            pinning,
          );
          requireAllSucceeded(run.label, load, server.process);
          return {
            label: run.label,
            database: run.dialect,
            scenario: run.scenario,
            load,
            peakRssMiB: server.process.peakRssMiB(),
            storedLeads,
            ...(code.revision && { baseline: code.revision }),
          };
        },
      );
      return { ...measured, storedLeadsAfter: await database.countLeads() };
    },
  );
}
