// The party module's public surface: outside src/party/, only this file may be imported
// (docs/design.md section 10; db/tables.ts alone takes the row types from party.table.ts).
// The module owns the party aggregate (prospect, refs, callbacks, risk objects with their
// revisions, policy packages, policies, coverages): matching, merge, revisions and ETags,
// the SQL of its tables (its *.repository.ts files), its use cases and its routes.

// Use cases, built by app.ts: a push, a batch of pushes and a PATCH write; the readers only read.
export { LeadPushService } from './lead-push.service.ts';
export { LeadBatchService } from './lead-batch.service.ts';
export { PartyPatchService } from './party-patch.service.ts';
export { LeadReader } from './lead-read.service.ts';
export { PartyReader } from './party-read.service.ts';
export { PushLogReader } from './push-log-read.service.ts';
export { LeadWorkService } from './lead-work.service.ts';
export { LeadHistoryReader } from './lead-history-read.service.ts';
export { ErasureService } from './erasure.service.ts';
export { PartyExportService } from './party-export.service.ts';
export { listAuditLog } from './audit-log.service.ts';
export { RetentionService } from './retention.service.ts';
export { RefHashes } from './ref-hash.ts';

// Its routes, registered by app.ts under /v1/api.
export { leadPushRoutes } from './routes/lead-push.routes.ts';
export { leadBatchRoutes } from './routes/lead-batch.routes.ts';
export { leadReadRoutes } from './routes/lead-read.routes.ts';
export { partyRoutes } from './routes/party.routes.ts';
export { leadWorkRoutes } from './routes/lead-work.routes.ts';
export { partyErasureRoutes } from './routes/party-erasure.routes.ts';

// The lead as answers, reads and webhooks carry it (the broker app renders it), and the
// documented example pushes (tests push them).
export { LeadResponse } from './lead.response.ts';
export { leadExamples } from './lead.examples.ts';

// What the broker app's advisory counts premiums by.
export { LEAD_STATUSES, PAYMENT_INTERVALS } from './enumerations.ts';

// The SQL a PostgreSQL write reads its clock with, which bench/write-limits.ts measures.
export { WRITER_CLOCK_SQL } from './change-clock.ts';

// Row types: bench/write-limits.ts types the rows it writes straight to the database with
// them, and the walls let bench/ import nothing of the module but this file.
export type * from './party.table.ts';

// The tables an erasure reaches and those it leaves as not personal: the schema test checks
// every table of the live database against them (docs/design.md section 11).
export { NOT_PERSONAL, PARTY_ROWS } from './party-rows.repository.ts';
