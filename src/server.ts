// The process: configuration, logger, database, migrations, listen, graceful shutdown
// (fastify/demo's server.ts). `npm start` runs this file; so does `lead-intake serve`.
// With WORKERS > 1 this process is the primary of several (server-workers.ts), and each
// worker runs startServer.
import cluster from 'node:cluster';
import { loadConfig, ConfigError, type Config } from './config.ts';
import { openDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { databaseStartProblem } from './db/start-up-errors.ts';
import { buildApp, type App } from './app.ts';
import { addDemoData } from './demo-data.service.ts';
import { runPrimary } from './server-workers.ts';
import { stopWhenLauncherExits } from './launcher-watch.ts';

/** One server, or (WORKERS > 1, PostgreSQL) the primary of several, or one of them. */
export async function serve(config: Config): Promise<void> {
  // The primary (or the one server) follows npm out; workers follow their primary.
  if (cluster.isPrimary) stopWhenLauncherExits();
  if (config.workers > 1 && cluster.isPrimary) return runPrimary(config);
  // A worker: the primary has already set the database up.
  await startServer(config, { setUp: !cluster.isWorker });
}

export async function startServer(config: Config, { setUp = true } = {}): Promise<App> {
  const database = openDatabase(config);
  if (setUp) await migrateToLatest(database.db);
  const app = await buildApp({
    config,
    database,
    logger: {
      level: config.logLevel,
      // Secrets never reach the logs (docs/design.md section 11).
      redact: ['req.headers.authorization', 'req.headers.cookie'],
    },
  });
  // The database closes after app.close() resolves, not in an onClose hook: hooks added
  // here would run before app.ts's own (the write queue's last commit, the webhook worker).
  const close = async () => {
    await app.close();
    await database.close();
  };
  await app.listen({ port: config.port, host: config.host });
  app.log.info({ database: database.location }, 'lead-intake is serving');
  // After listen, so the demo's token is printed below the line that says where to use it.
  if (setUp) await addDemoData(database, config, app.log);

  let closing = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      if (closing) return;
      closing = true;
      app.log.info({ signal }, 'shutting down');
      // Stop accepting, finish the requests in flight (their commits included), then exit.
      const force = setTimeout(() => process.exit(1), 10_000).unref();
      close().then(
        () => {
          clearTimeout(force);
          process.exit(0);
        },
        (error) => {
          app.log.error(error);
          process.exit(1);
        },
      );
    });
  }
  return app;
}

if (import.meta.main) {
  let config: Config | undefined;
  try {
    config = loadConfig();
    await serve(config);
  } catch (error) {
    // One line for what an operator fixes (the configuration, the database); a stack
    // trace only for what is a bug.
    const problem = error instanceof ConfigError ? error.message : databaseStartProblem(error, config?.databaseUrl);
    console.error(problem === undefined ? error : `lead-intake: ${problem}`);
    process.exit(1);
  }
}
