// lead-intake webhook secret|rotate-secret|deliveries|replay|work (docs/design.md section 5).
import { listDeliveries, replayDeliveries } from '../webhooks/admin/delivery-admin.service.ts';
import { currentSecret, rotateSecret } from '../webhooks/signing/signing-key.service.ts';
import { DELIVERY_STATUSES } from '../webhooks/webhook.table.ts';
import {
  type CliIo,
  type CommandGroup,
  UsageError,
  parseCommandLine,
  printJson,
  requiredOption,
  runSubcommand,
  withDatabase,
} from './command.ts';

const HELP = `Usage:
  lead-intake webhook secret --distribution <id>
      print the distribution's signing secret (whsec_...), creating it on first use:
      {"distribution_id", "secret", "created_at", "previous": [{"created_at", "expires_at"}]}
  lead-intake webhook rotate-secret --distribution <id>
      make a new secret; the previous one keeps signing (a second signature) for 24 hours
  lead-intake webhook deliveries [--status pending|delivered|failed] [--lead <lead id>]
                                 [--distribution <id>] [--limit <n, default 50>]
      print the newest deliveries with their attempts (status code, latency, error)
  lead-intake webhook replay <delivery id> | --all-failed [--distribution <id>]
      send deliveries again (same webhook-id, a fresh round of retries); prints {"replayed": [ids]}
  lead-intake webhook work
      run a delivery worker without the HTTP server, until SIGINT/SIGTERM (for deployments
      that set WEBHOOK_WORKER=false on the serving processes)`;

async function secret(args: string[], io: CliIo): Promise<void> {
  const { values } = parseCommandLine('webhook secret', HELP, args, { distribution: { type: 'string' } });
  const distributionId = requiredOption('webhook secret', 'distribution', values.distribution);
  printJson(io, await withDatabase(io, (database) => currentSecret(database.db, distributionId)));
}

async function rotate(args: string[], io: CliIo): Promise<void> {
  const { values } = parseCommandLine('webhook rotate-secret', HELP, args, { distribution: { type: 'string' } });
  const distributionId = requiredOption('webhook rotate-secret', 'distribution', values.distribution);
  printJson(io, await withDatabase(io, (database) => rotateSecret(database.db, distributionId)));
}

async function deliveries(args: string[], io: CliIo): Promise<void> {
  const command = 'webhook deliveries';
  const { values } = parseCommandLine(command, HELP, args, {
    status: { type: 'string' },
    lead: { type: 'string' },
    distribution: { type: 'string' },
    limit: { type: 'string' },
  });
  const status = DELIVERY_STATUSES.find((known) => known === values.status);
  if (values.status !== undefined && status === undefined) {
    throw new UsageError(command, `--status must be one of ${DELIVERY_STATUSES.join(', ')}`);
  }
  const limit = values.limit === undefined ? 50 : Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
    throw new UsageError(command, '--limit must be an integer from 1 to 1000');
  printJson(
    io,
    await withDatabase(io, (database) =>
      listDeliveries(database.db, {
        status,
        leadId: values.lead,
        distributionId: values.distribution,
        limit,
      }),
    ),
  );
}

async function replay(args: string[], io: CliIo): Promise<void> {
  const command = 'webhook replay';
  if (args.includes('--all-failed')) {
    const { values } = parseCommandLine(command, HELP, args, {
      'all-failed': { type: 'boolean' },
      distribution: { type: 'string' },
    });
    const distributionId = values.distribution?.trim() || undefined;
    printJson(io, {
      replayed: await withDatabase(io, (database) =>
        replayDeliveries(database.db, { allFailed: true, distributionId }),
      ),
    });
    return;
  }
  const { positionals } = parseCommandLine(command, HELP, args, {}, ['<delivery id> (or --all-failed)']);
  printJson(io, {
    replayed: await withDatabase(io, (database) => replayDeliveries(database.db, { ids: [positionals[0]!] })),
  });
}

/** A worker process of its own: polls the shared database, stops cleanly on SIGINT/SIGTERM. */
async function work(args: string[], io: CliIo): Promise<void> {
  parseCommandLine('webhook work', HELP, args, {});
  // Loaded here: the other commands need none of this, and it would slow their start.
  const [{ default: pino }, { Registry }, { createTransactionRunner }, { createWebhookMetrics }, { WebhookWorker }] =
    await Promise.all([
      import('pino'),
      import('prom-client'),
      import('../db/transaction-runner.ts'),
      import('../webhooks/webhook.metrics.ts'),
      import('../webhooks/delivery/webhook.worker.ts'),
    ]);
  await withDatabase(io, async (database, config) => {
    const log = pino({ level: config.logLevel, base: { component: 'webhook-worker' } });
    const transactions = createTransactionRunner(database);
    // No HTTP here, so no /metrics: the serving processes report the outbox lag of the database.
    const metrics = createWebhookMetrics(new Registry(), database);
    const worker = new WebhookWorker({ config, database, transactions, metrics, log });
    worker.start();
    log.info({ database: database.location }, 'webhook worker running');
    const signal = await new Promise<NodeJS.Signals>((resolve) => {
      process.once('SIGINT', () => resolve('SIGINT'));
      process.once('SIGTERM', () => resolve('SIGTERM'));
    });
    log.info({ signal }, 'webhook worker stopping');
    await worker.stop();
    await transactions.close();
  });
}

export const webhookCommands: CommandGroup = {
  name: 'webhook',
  summary: 'signing secrets, deliveries, replays and a dedicated delivery worker',
  run: (args, io) =>
    runSubcommand('webhook', HELP, args, io, {
      secret,
      'rotate-secret': rotate,
      deliveries,
      replay,
      work,
    }),
};
