// lead-intake party erase|export and audit list (docs/design.md section 15; docs/personal-data.md,
// "Personal data"): an operator answers an erasure or access request without the API. The
// same services as the API run here, so the tombstone, the lead.erased event, the audit
// entry and (on SQLite) the WAL checkpoint are the same.
import { createInterface } from 'node:readline';
import { createTransactionRunner } from '../db/transaction-runner.ts';
import {
  backfillDuplicateKeys,
  ErasureService,
  listAuditLog,
  PartyExportService,
  PartyMergeService,
  RefHashes,
} from '../party/index.ts';
import { ApiError } from '../errors.ts';
import { WebhookOutbox } from '../webhooks/webhook.outbox.ts';
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
  lead-intake party erase --distribution <id> --party <party id> [--yes]
      erase the person and everything kept about them (GDPR art. 17); prints the receipt
      {"party_id", "erased_at", "lead_ids", "counts"}, which holds no personal data.
      It cannot be undone: at a terminal it asks you to type "yes" first (any other answer
      erases nothing, exit 1); elsewhere (a script, a pipe) it needs --yes, and without it
      refuses the command line (exit 2)
  lead-intake party export --distribution <id> --party <party id>
      print everything kept about the person as one JSON document (GDPR art. 15 and 20)
Both are recorded in the audit log (lead-intake audit list) with the actor "cli".
  lead-intake party merge --distribution <id> --party <survivor's party id> --from <party id>
      merge the party --from into --party (docs/api.md, "Merging two parties"): everything of
      it moves to the survivor, whose values win; prints the survivor as the API's GET does.
      The merged party and its lead answer 410 afterwards; the survivor's history names "cli"
  lead-intake party duplicate-keys [--batch <n, default 500>]
      give every party stored before the possible-duplicate keys existed its keys (docs/
      operations.md, "Possible-duplicate keys of older parties"), --batch parties per
      transaction; prints {"parties_read", "parties_keyed", "keys_written"}. Safe while
      servers run, and to run again: parties that have keys are passed over`;

const AUDIT_HELP = `Usage:
  lead-intake audit list [--distribution <id>] [--limit <n, default 100>]
      print the newest erasures and exports: {"id", "at", "action", "distribution_id",
      "party_id", "actor", "username"}, nothing about the person. "actor" is token:<id>,
      user:<id>, cli or retention; "username" names a user:<id> actor (null for the others)`;

const ACTOR = 'cli';

function target(command: string, args: string[], help: string, { confirmable = false } = {}) {
  const { values } = parseCommandLine(command, help, args, {
    distribution: { type: 'string' },
    party: { type: 'string' },
    ...(confirmable && { yes: { type: 'boolean' } }),
  });
  return {
    distributionId: requiredOption(command, 'distribution', values.distribution),
    partyId: requiredOption(command, 'party', values.party),
    confirmed: values.yes === true,
  };
}

/**
 * An erasure cannot be undone (docs/personal-data.md): a person at a terminal types "yes";
 * a script says --yes, since nobody can answer it (a missing --yes is then a bad command
 * line, exit 2). Any other answer erases nothing and exits 1.
 */
async function confirmErasure(io: CliIo, distributionId: string, partyId: string): Promise<void> {
  if (!io.stdin.isTTY) {
    throw new UsageError(
      'party erase',
      'erasing cannot be undone: add --yes to confirm (stdin is not a terminal, so there is nobody to ask)',
    );
  }
  io.stderr.write(
    `Erase party ${partyId} of distribution ${distributionId} and everything kept about them? This cannot be undone. Type yes to erase: `,
  );
  const lines = createInterface({ input: io.stdin, terminal: false });
  try {
    for await (const line of lines) {
      if (line.trim().toLowerCase() === 'yes') return;
      break;
    }
  } finally {
    lines.close();
  }
  throw new Error(`not confirmed: party ${partyId} was not erased`);
}

/** An answer the API would give as 404 or 410, said in a sentence. */
function explained(error: unknown, partyId: string): unknown {
  if (!(error instanceof ApiError)) return error;
  if (error.type === 'Erased') return new Error(`party ${partyId} was erased already`);
  if (error.type === 'NotFound') return new Error(`no party ${partyId} in this distribution`);
  if (error.type === 'Merged') return new Error(`party ${partyId} was merged into another party already`);
  return error;
}

async function erase(args: string[], io: CliIo): Promise<void> {
  const { distributionId, partyId, confirmed } = target('party erase', args, HELP, { confirmable: true });
  if (!confirmed) await confirmErasure(io, distributionId, partyId);
  const receipt = await withDatabase(io, async (database) => {
    const transactions = createTransactionRunner(database);
    try {
      const erasure = new ErasureService({
        database,
        transactions,
        refHashes: new RefHashes(database.db),
        // The serving processes' workers find the lead.erased event at their next poll.
        outbox: new WebhookOutbox(),
      });
      return await erasure.erase({ distributionId, partyId, actor: ACTOR });
    } catch (error) {
      throw explained(error, partyId);
    } finally {
      await transactions.close();
    }
  });
  printJson(io, receipt);
}

async function merge(args: string[], io: CliIo): Promise<void> {
  const command = 'party merge';
  const { values } = parseCommandLine(command, HELP, args, {
    distribution: { type: 'string' },
    party: { type: 'string' },
    from: { type: 'string' },
  });
  const distributionId = requiredOption(command, 'distribution', values.distribution);
  const partyId = requiredOption(command, 'party', values.party);
  const from = requiredOption(command, 'from', values.from);
  const survivor = await withDatabase(io, async (database, config) => {
    const transactions = createTransactionRunner(database);
    try {
      // The serving processes' workers find the party.merged event at their next poll.
      const service = new PartyMergeService({ config, transactions, outbox: new WebhookOutbox() });
      return (await service.merge({ distributionId, partyId, from, ifMatch: undefined, caller: ACTOR })).party;
    } catch (error) {
      if (error instanceof ApiError && error.problems[0]?.target === 'from') {
        const code = error.problems[0].code;
        if (code === 'merge_kind') return Promise.reject(new Error('a customer and a company cannot be merged'));
        if (code === 'merge_itself') return Promise.reject(new Error('a party cannot be merged with itself'));
        if (code === 'merge_match_key')
          return Promise.reject(
            new Error(
              `joined, the two would have the e-mail, birth date and address of party ${error.problems[0].params?.party_id}: merge that party too`,
            ),
          );
        if (error.type === 'Merged')
          return Promise.reject(new Error(`party ${from} was merged into another party already`));
        return Promise.reject(new Error(`no party ${from} to merge in this distribution`));
      }
      throw explained(error, partyId);
    } finally {
      await transactions.close();
    }
  });
  printJson(io, survivor);
}

async function duplicateKeys(args: string[], io: CliIo): Promise<void> {
  const command = 'party duplicate-keys';
  const { values } = parseCommandLine(command, HELP, args, { batch: { type: 'string' } });
  const batch = values.batch === undefined ? undefined : Number(values.batch);
  if (batch !== undefined && (!Number.isInteger(batch) || batch < 1 || batch > 2000))
    throw new UsageError(command, '--batch must be an integer from 1 to 2000');
  const report = await withDatabase(io, async (database) => {
    const transactions = createTransactionRunner(database);
    try {
      return await backfillDuplicateKeys(transactions, batch);
    } finally {
      await transactions.close();
    }
  });
  printJson(io, report);
}

async function exportParty(args: string[], io: CliIo): Promise<void> {
  const { distributionId, partyId } = target('party export', args, HELP);
  const document = await withDatabase(io, async (database, config) => {
    const transactions = createTransactionRunner(database);
    try {
      return await new PartyExportService({ config, transactions }).export({ distributionId, partyId, actor: ACTOR });
    } catch (error) {
      throw explained(error, partyId);
    } finally {
      await transactions.close();
    }
  });
  printJson(io, document);
}

async function list(args: string[], io: CliIo): Promise<void> {
  const command = 'audit list';
  const { values } = parseCommandLine(command, AUDIT_HELP, args, {
    distribution: { type: 'string' },
    limit: { type: 'string' },
  });
  const limit = values.limit === undefined ? 100 : Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 10_000)
    throw new UsageError(command, '--limit must be an integer from 1 to 10000');
  const distributionId = values.distribution?.trim() || undefined;
  printJson(io, await withDatabase(io, (database) => listAuditLog(database.db, { distributionId, limit })));
}

export const partyCommands: CommandGroup = {
  name: 'party',
  summary: 'erase a person, export everything kept about them, merge two parties, or key older parties',
  run: (args, io) =>
    runSubcommand('party', HELP, args, io, { erase, export: exportParty, merge, 'duplicate-keys': duplicateKeys }),
};

export const auditCommands: CommandGroup = {
  name: 'audit',
  summary: 'the log of erasures and exports',
  run: (args, io) => runSubcommand('audit', AUDIT_HELP, args, io, { list }),
};
