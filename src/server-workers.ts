// `lead-intake serve --workers N` (WORKERS): the primary process of a node:cluster, so one
// machine's cores all serve one port (docs/design.md section 9). The primary serves nothing
// itself: it applies pending migrations once, starts N workers (each a whole server of
// server.ts, with its own pool and webhook worker), starts a new one when one dies, and on
// SIGTERM or SIGINT has every worker finish its requests in flight, then exits.
import cluster, { type Worker } from 'node:cluster';
import pino from 'pino';
import type { Config } from './config.ts';
import { openDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { addDemoData } from './demo-data.service.ts';

/** A worker that dies before it ever served was not killed by a fault of the moment: no restart loop. */
const RESTART_DELAY_MS = 1_000;
/** Each worker gets this long to finish its requests after SIGTERM (server.ts gives itself 10 s). */
const STOP_TIMEOUT_MS = 15_000;

export async function runPrimary(config: Config): Promise<void> {
  const log = pino({ level: config.logLevel, base: { pid: process.pid, role: 'primary' } });
  // Once, before any worker: N processes starting together would all try the same
  // migrations and demo data.
  const database = openDatabase(config);
  try {
    await migrateToLatest(database.db);
    await addDemoData(database, config, log);
  } finally {
    await database.close();
  }

  let stopping = false;
  let exitCode = 0;
  const served = new WeakSet<Worker>();
  const start = () => {
    const worker = cluster.fork();
    worker.once('listening', () => served.add(worker));
  };
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) {
        log.info('every worker has stopped');
        process.exit(exitCode);
      }
      return;
    }
    if (!served.has(worker)) {
      // It could not even start (a bad port, an unreachable database): a new one would fail alike.
      log.fatal({ worker: worker.process.pid, code, signal }, 'a worker stopped before it served; stopping');
      stopAll(1);
      return;
    }
    log.error({ worker: worker.process.pid, code, signal }, 'a worker died; starting a new one');
    setTimeout(start, RESTART_DELAY_MS).unref();
  });

  const stopAll = (code: number) => {
    stopping = true;
    exitCode = code;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
    // A worker that does not finish in time is not waited for.
    setTimeout(() => process.exit(1), STOP_TIMEOUT_MS).unref();
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(exitCode);
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      if (stopping) return;
      log.info({ signal, workers: Object.keys(cluster.workers ?? {}).length }, 'shutting down');
      stopAll(0);
    });
  }
  log.info({ workers: config.workers, database: database.location }, 'starting workers');
  for (let i = 0; i < config.workers; i++) start();
}
