// The party module's public surface: outside src/party/, only this file may be imported
// (docs/design.md section 10; db/tables.ts alone takes the row types from the *.table.ts
// files). The module owns the party aggregate (prospect, refs, callbacks, risk objects with
// their revisions, policy packages, policies, coverages): matching, merge, revisions and
// ETags, the SQL of its tables (its *.repository.ts files), its use cases and its routes,
// one folder per capability (model, store, push, batch, patch, read, inbox, work, privacy,
// duplicates, stats).

// The module in the server: its services and routes, registered by app.ts in one line; the
// services it returns are those the broker app reads and changes leads through.
export { registerParty, type PartyServices } from './party.plugin.ts';
export type { LeadReader } from './read/lead-read.service.ts';
export type { InboxReader } from './inbox/inbox-read.service.ts';
export type { InboxFilter, InboxQuery } from './inbox/inbox-filter.ts';
export type { PartyReader } from './read/party-read.service.ts';
export type { PushLogReader } from './read/push-log-read.service.ts';
export type { LeadHistoryReader } from './read/lead-history-read.service.ts';
export type { LeadWorkService } from './work/lead-work.service.ts';
export type { DuplicatesReader } from './duplicates/duplicates-read.service.ts';
// Keys for parties stored before the possible-duplicate keys existed: the CLI's party duplicate-keys.
export { backfillDuplicateKeys } from './duplicates/duplicate-keys-backfill.service.ts';
// The look-up of possible duplicates, unrun: bench/duplicates.ts asks each database for its plan.
export { sharedKeysQuery, sharedPartiesQuery } from './duplicates/duplicates.repository.ts';
export { reasonOf } from './duplicates/duplicate-ranking.ts';
export { birthKeys } from './duplicates/duplicate-keys.ts';
// Merging two parties: the CLI's party merge runs the API's service.
export { PartyMergeService } from './party-merge/party-merge.service.ts';
// Where leads come from: the routes' service, which bench/sources.ts reads at scale too.
export { SourceStatsReader } from './stats/source-stats.service.ts';
export type { SourceStats } from './stats/source-stats.ts';
export { sourceStatsCsv } from './stats/source-stats-csv.ts';
// The projector that folds pushes into those figures (and the inbox's counts): bench/sources.ts
// folds its bulk-written pushes with it, tests run a second process's.
export { InboxProjection } from './inbox/inbox-projection.service.ts';

// A person's data outside the server: the CLI's erase, export, audit and retention commands.
export { ErasureService } from './privacy/erasure.service.ts';
export { PartyExportService } from './privacy/party-export.service.ts';
export { listAuditLog } from './privacy/audit-log.service.ts';
export { RetentionService } from './privacy/retention.service.ts';
export { RefHashes } from './privacy/ref-hashes.service.ts';
export { compactPersonalData } from './privacy/compaction.service.ts';

// Routing new leads (docs/design.md section 15): the CLI's `routing set|show`.
export { RoutingFileError, setRoutingRules, showRoutingRules } from './routing/routing.service.ts';
// How long a server keeps a distribution's rules (tests move their clock past it).
export { ROUTING_RULES_TTL_MS } from './routing/lead-routing.ts';

// The lead as answers, reads and webhooks carry it (the broker app renders it), and the
// documented example pushes (tests push them).
export { LeadResponse } from './model/lead.response.ts';
export { leadExamples } from './model/lead.examples.ts';

// What the broker app's advisory counts premiums by.
export { LEAD_STATUSES, PAYMENT_INTERVALS } from './model/enumerations.ts';

// The counts per status the inbox shows (docs/design.md section 13): tests read them as the
// inbox does, kept counts and the leads since added together.
export { countByStatus } from './inbox/status-count.repository.ts';
// A page of the inbox in any order and where it ends, and a page of the change listing:
// test/inbox-plans.test.ts counts what each reads.
export { inboxPosition, listInboxRows } from './inbox/inbox.repository.ts';
export { leadRowsQuery, listLeadRows } from './read/lead-read.repository.ts';
// The push's lookups and retention's search of the push log: test/push-index-entries.test.ts
// reads their plans (each reads an index a push already writes).
export { oldPushesQuery } from './privacy/retention.repository.ts';
export { PUSH_CANDIDATES, sqliteLookupTexts } from './push/push-candidates.repository.ts';
// The projector's look-up for work (every second, in every process): tests count what it reads.
export { distributionsBehind, WORDS_PER_BATCH } from './inbox/inbox-projection.repository.ts';

// The SQL a PostgreSQL write reads its clock with, which bench/write-limits.ts measures.
export { WRITER_CLOCK_SQL } from './store/change-clock.repository.ts';

// Row types: bench/write-limits.ts types the rows it writes straight to the database with
// them, and the walls let bench/ import nothing of the module but this file.
export type * from './model/party.table.ts';

// The tables an erasure reaches and those it leaves as not personal: the schema test checks
// every table of the live database against them (docs/design.md section 11).
export { NOT_PERSONAL, PARTY_ROWS } from './privacy/party-rows.repository.ts';

// Rule 1's e-mail + birth + address key as a customer's data gives it: the model test checks
// that every stored customer's match key is its data's (test/model/model-run.ts).
export { customerMatchKey } from './push/match-key.ts';
