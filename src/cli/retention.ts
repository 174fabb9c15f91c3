// lead-intake retention run (docs/design.md section 15; docs/personal-data.md, "Retention"): one
// retention pass now, with the periods of the environment (RETENTION_PUSH_LOG,
// RETENTION_WEBHOOK_EVENTS, RETENTION_LEADS), printing what it removed.
import { createTransactionRunner } from '../db/transaction-runner.ts';
import { RefHashes, RetentionService } from '../party/index.ts';
import { WebhookOutbox } from '../webhooks/webhook.outbox.ts';
import { loadConfig } from '../config.ts';
import { type CliIo, type CommandGroup, parseCommandLine, printJson, runSubcommand, withDatabase } from './command.ts';

const HELP = `Usage:
  lead-intake retention run
      remove now what is older than RETENTION_PUSH_LOG, RETENTION_WEBHOOK_EVENTS and
      RETENTION_LEADS (each off unless set); prints {"ran", "push_log", "webhook_events",
      "webhook_deliveries", "webhook_attempts", "leads"}. "ran" is false when another
      process is running a pass (nothing was removed then). With none of the three set, it
      says so on stderr and exits 1: there is nothing to run.`;

/** With every period off, a pass removes nothing: said, rather than answered as if it ran. */
const NOTHING_CONFIGURED =
  'no retention period is set (RETENTION_PUSH_LOG, RETENTION_WEBHOOK_EVENTS and RETENTION_LEADS are all off), so nothing was removed; see docs/personal-data.md, "Retention"';

async function run(args: string[], io: CliIo): Promise<void> {
  parseCommandLine('retention run', HELP, args, {});
  const { retention } = loadConfig(io.env);
  if (retention.pushLogMs === undefined && retention.webhookEventsMs === undefined && retention.leadsMs === undefined)
    throw new Error(NOTHING_CONFIGURED);
  const report = await withDatabase(io, async (database, config) => {
    const transactions = createTransactionRunner(database);
    try {
      const retention = new RetentionService({
        database,
        transactions,
        refHashes: new RefHashes(database.db),
        outbox: new WebhookOutbox(),
        retention: config.retention,
      });
      return await retention.runPass();
    } finally {
      await transactions.close();
    }
  });
  printJson(io, report);
}

export const retentionCommands: CommandGroup = {
  name: 'retention',
  summary: 'remove now what is older than the retention periods',
  run: (args, io) => runSubcommand('retention', HELP, args, io, { run }),
};
