// The party module in the server (docs/design.md section 10), registered by app.ts in one
// line: builds its use cases from the database, the config and what it takes from other
// modules (the webhook outbox its writes record events in, the shared transaction runner,
// the validation compilers), registers their routes under /v1/api, starts retention when a
// period is set, and returns the services the broker app's pages read and write through.
import type { FastifyInstance } from 'fastify';
import { type Clock, systemClock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { DatabaseHandle } from '../db/database.ts';
import type { TransactionRunner } from '../db/transaction-runner.ts';
import type { AjvCompilers } from '../http/validation.ts';
import type { WebhookOutbox } from '../webhooks/webhook.outbox.ts';
import { duplicatesRoutes } from './duplicates/duplicates.routes.ts';
import { DuplicatesReader } from './duplicates/duplicates-read.service.ts';
import { partyMergeRoutes } from './party-merge/party-merge.routes.ts';
import { PartyMergeService } from './party-merge/party-merge.service.ts';
import { leadBatchRoutes } from './batch/lead-batch.routes.ts';
import { LeadBatchService } from './batch/lead-batch.service.ts';
import { partyPatchRoutes } from './patch/party-patch.routes.ts';
import { PartyPatchService } from './patch/party-patch.service.ts';
import { InboxProjection } from './inbox/inbox-projection.service.ts';
import { InboxReader } from './inbox/inbox-read.service.ts';
import { sourceStatsRoutes } from './stats/source-stats.routes.ts';
import { SourceStatsReader } from './stats/source-stats.service.ts';
import { ErasureService } from './privacy/erasure.service.ts';
import { PartyExportService } from './privacy/party-export.service.ts';
import { personalDataRoutes } from './privacy/personal-data.routes.ts';
import { RefHashes } from './privacy/ref-hashes.service.ts';
import { RetentionService } from './privacy/retention.service.ts';
import { leadPushRoutes } from './push/lead-push.routes.ts';
import { LeadPushService } from './push/lead-push.service.ts';
import { LeadRouting } from './routing/lead-routing.ts';
import { LeadHistoryReader } from './read/lead-history-read.service.ts';
import { leadReadRoutes } from './read/lead-read.routes.ts';
import { LeadReader } from './read/lead-read.service.ts';
import { partyReadRoutes } from './read/party-read.routes.ts';
import { PartyReader } from './read/party-read.service.ts';
import { PushLogReader } from './read/push-log-read.service.ts';
import { leadWorkRoutes } from './work/lead-work.routes.ts';
import { LeadWorkService } from './work/lead-work.service.ts';

export interface PartyDependencies {
  readonly config: Config;
  readonly database: DatabaseHandle;
  /** The app's one runner for every write, so SQLite's group commit covers them all. */
  readonly transactions: TransactionRunner;
  /** Where pushes, updates and erasures write their webhook events, in their own transaction. */
  readonly outbox: WebhookOutbox;
  readonly validation: AjvCompilers;
  /** The app's clock: how long routing rules are kept before they are read again. */
  readonly clock?: Clock;
}

/** What the broker app reads and changes a lead through: the services the API's routes use. */
export interface PartyServices {
  readonly leads: LeadReader;
  readonly inbox: InboxReader;
  readonly pushLog: PushLogReader;
  readonly parties: PartyReader;
  readonly leadWork: LeadWorkService;
  readonly history: LeadHistoryReader;
  readonly erasure: ErasureService;
  readonly partyExport: PartyExportService;
  readonly duplicates: DuplicatesReader;
  readonly partyMerge: PartyMergeService;
  readonly sourceStats: SourceStatsReader;
}

export async function registerParty(app: FastifyInstance, deps: PartyDependencies): Promise<PartyServices> {
  const { config, database, transactions, outbox, validation } = deps;
  const prefix = '/v1/api';
  // The key of the erased refs' hashes, read once per process (docs/design.md section 15).
  const refHashes = new RefHashes(database.db);

  const routing = new LeadRouting(deps.clock ?? systemClock, database.dialect);
  const leadPush = new LeadPushService({ database, config, transactions, outbox, refHashes, routing });
  await app.register(leadPushRoutes, { prefix, leadPush, validation });
  const leadBatch = new LeadBatchService({
    leadPush,
    compileBody: validation.compileBody,
    orderedWriter: database.dialect === 'sqlite',
    onPushed: (result) => app.metrics.leadsPushed.inc({ outcome: result.created ? 'created' : 'merged' }),
  });
  await app.register(leadBatchRoutes, { prefix, leadBatch, validation, bodyLimit: config.batchBodyLimit });

  const leads = new LeadReader({ database, config, refHashes });
  const pushLog = new PushLogReader({ database });
  const parties = new PartyReader({ database, config });
  const partyPatch = new PartyPatchService({ config, transactions, outbox });
  await app.register(leadReadRoutes, { prefix, leads, pushLog, config });
  await app.register(partyReadRoutes, { prefix, parties });
  await app.register(partyPatchRoutes, { prefix, partyPatch, validation });
  const partyMerge = new PartyMergeService({ config, transactions, outbox });
  await app.register(partyMergeRoutes, { prefix, partyMerge });
  const duplicates = new DuplicatesReader({ database });
  await app.register(duplicatesRoutes, { prefix, duplicates });

  const leadWork = new LeadWorkService({ config, transactions, outbox });
  await app.register(leadWorkRoutes, { prefix, leadWork });

  const erasure = new ErasureService({ database, transactions, refHashes, outbox });
  const partyExport = new PartyExportService({ config, transactions });
  await app.register(personalDataRoutes, { prefix, erasure, partyExport });
  startRetention(app, new RetentionService({ database, transactions, refHashes, outbox, retention: config.retention }));

  const sourceStats = new SourceStatsReader({ database });
  await app.register(sourceStatsRoutes, { prefix, sourceStats });

  const history = new LeadHistoryReader({ database });
  // The inbox's counts and word index, brought up to date after the pushes' commits.
  const projection = new InboxProjection({ database, transactions });
  if (config.inboxProjector)
    app.addHook(
      'onClose',
      projection.start((error) => app.log.error({ err: error }, 'inbox projection failed')),
    );
  const inbox = new InboxReader({ database, projection });
  return {
    leads,
    inbox,
    pushLog,
    parties,
    leadWork,
    history,
    erasure,
    partyExport,
    duplicates,
    sourceStats,
    partyMerge,
  };
}

/**
 * Retention (docs/design.md section 15), when a period is set: every process runs the task,
 * and the lease lets one pass run at a time across them. It stops when the app closes.
 */
function startRetention(app: FastifyInstance, retention: RetentionService): void {
  if (!retention.enabled) return;
  const stop = retention.start({
    report: (report) => {
      if (report.ran) app.log.info({ retention: report }, 'retention pass');
    },
    error: (error) => app.log.error({ err: error }, 'retention pass failed'),
  });
  app.addHook('onClose', stop);
}
