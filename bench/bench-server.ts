// The one way a benchmark gets a server: a fresh database (a SQLite directory or a
// PostgreSQL database of its own), migrated and given its distributions and tokens by the
// code measured (this checkout or a baseline revision, bench/server-code.ts), that code's
// server process on it, and both gone afterwards whatever happened.
//   await withBenchServer({ engine, postgresUrl, pinning, code, env, scopes }, async (server) => ...)
// withBenchDatabase and withServer are its two halves, for a run that starts several
// servers, one after the other, on one database.
import type { BenchDatabase, BenchDialect } from './database.ts';
import { type Pinning, SERVER_ENV, type ServerProcess, startServer } from './processes.ts';
import { createBenchDatabase, CURRENT_CODE, PUSH_SCOPES, type ServerCode } from './server-code.ts';

export interface DatabaseSpec {
  readonly engine: BenchDialect;
  readonly postgresUrl: string;
  /** This checkout unless given. */
  readonly code?: ServerCode;
  /** The tokens' scopes (PUSH_SCOPES unless given). */
  readonly scopes?: readonly string[];
  readonly distributions?: number;
  /** A database made otherwise (a copy of a seeded template), dropped afterwards as a fresh one is. */
  readonly database?: () => Promise<BenchDatabase>;
}

export interface ServerSpec {
  readonly pinning: Pinning;
  /** On top of SERVER_ENV and the database's own. */
  readonly env?: Record<string, string>;
  readonly nodeArgs?: string[];
  /** Serving once this answers with any status (/healthz unless given; revisions before it answer 404). */
  readonly readyPath?: string;
}

export interface BenchServer {
  readonly url: string;
  readonly pid: number;
  readonly process: ServerProcess;
  readonly database: BenchDatabase;
  readonly code: ServerCode;
  readonly distributionId: string;
  readonly token: string;
  /** POST here pushes a customer lead into the first distribution. */
  readonly pushPath: string;
}

export const pushPath = (distributionId: string, kind: 'customers' | 'companies' | 'batch' = 'customers') =>
  `/v1/api/distributions/${distributionId}/leads/${kind}`;

export async function withBenchDatabase<T>(
  spec: DatabaseSpec,
  use: (database: BenchDatabase) => Promise<T>,
): Promise<T> {
  const database = await (spec.database?.() ??
    createBenchDatabase(
      spec.engine,
      spec.postgresUrl,
      spec.scopes ?? PUSH_SCOPES,
      spec.distributions ?? 1,
      spec.code ?? CURRENT_CODE,
    ));
  try {
    return await use(database);
  } finally {
    await database.drop();
  }
}

/** The code's server on an existing database, stopped (SIGTERM, then SIGKILL) when `use` ends. */
export async function withServer<T>(
  database: BenchDatabase,
  code: ServerCode,
  spec: ServerSpec,
  use: (server: BenchServer) => Promise<T>,
): Promise<T> {
  const child = await startServer(
    'src/server.ts',
    { ...SERVER_ENV, ...database.env, ...spec.env },
    {
      pinning: spec.pinning,
      readyPath: spec.readyPath ?? '/healthz',
      root: code.root,
      ...(spec.nodeArgs && { nodeArgs: spec.nodeArgs }),
    },
  );
  try {
    return await use({
      url: child.url,
      pid: child.pid,
      process: child,
      database,
      code,
      distributionId: database.distributionId,
      token: database.token,
      pushPath: pushPath(database.distributionId),
    });
  } finally {
    await child.stop();
  }
}

export function withBenchServer<T>(
  spec: DatabaseSpec & ServerSpec,
  use: (server: BenchServer) => Promise<T>,
): Promise<T> {
  return withBenchDatabase(spec, (database) => withServer(database, spec.code ?? CURRENT_CODE, spec, use));
}
