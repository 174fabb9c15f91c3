// The process: configuration, logger, database, migrations, listen, graceful shutdown
// (fastify/demo's server.ts). `npm start` runs this file; so does `lead-intake serve`.
import { loadConfig, ConfigError, type Config } from './config.ts';
import { openDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { buildApp, type App } from './app.ts';
import { bootstrapDemo } from './distributions/demo-bootstrap.ts';
import { importSamplesIfEmpty } from './reference/demo-samples.ts';

export async function startServer(config: Config): Promise<App> {
  const database = openDatabase(config);
  await migrateToLatest(database.db);
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
  if (!config.production) await bootstrapDemo(database, config, app.log);
  if (!config.production) await importSamplesIfEmpty(database, config, app.log);

  let closing = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      if (closing) return;
      closing = true;
      app.log.info({ signal }, 'shutting down');
      // Stop accepting, finish the requests in flight (their commits included), then exit.
      const force = setTimeout(() => process.exit(1), 10_000).unref();
      close().then(
        () => { clearTimeout(force); process.exit(0); },
        (error) => { app.log.error(error); process.exit(1); },
      );
    });
  }
  return app;
}

if (import.meta.main) {
  try {
    await startServer(loadConfig());
  } catch (error) {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  }
}
