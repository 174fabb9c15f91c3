// The party module's public surface: the only file outside src/party/ may import.
// It owns the party aggregate (prospect, refs, callbacks, risk objects with their
// revisions, policy packages, policies, coverages): its tables, its one repository,
// matching, merge, revisions and ETags. Push, read and PATCH are its use cases.

// Use cases (wired in app.ts).
export { LeadPushService, type PushCommand, type PushResult } from './lead-push.service.ts';
export { LeadReader } from './lead-read.service.ts';
export { PushLogReader } from './push-log-read.service.ts';
export { PartyReader } from './party-read.service.ts';
export { PartyPatchService, type PatchResult } from './party-patch.service.ts';

// Its routes (registered by app.ts under /v1/api): pushes, lead reads, party reads and PATCH.
export { leadPushRoutes } from './routes/lead-push.routes.ts';
export { leadReadRoutes } from './routes/lead-read.routes.ts';
export { partyRoutes } from './routes/party.routes.ts';

// Shapes the routes declare (request bodies, answers) and their documented examples.
export { CompanyLeadBody, CustomerLeadBody, type LeadBody } from './lead.schema.ts';
export { LeadResponse } from './lead.response.ts';
export { PartyPatch, PartyResponse, RevisionOut } from './party.schema.ts';
export { leadExamples } from './lead.examples.ts';
// The push rules JSON Schema cannot express, injected into body validation by the routes.
export { checkPayloadRules } from './payload-rules.ts';

// What the broker app shows or searches by (the inbox matches enterprise numbers by digits).
export { PAYMENT_INTERVALS } from './enumerations.ts';
export { enterpriseDigits } from './inbox.repository.ts';

// The SQL a PostgreSQL write reads its clock with, which bench/write-limits.ts measures.
export { WRITER_CLOCK_SQL } from './change-clock.ts';

// Table types, for the database's schema type (db/database.ts).
export type * from './party.table.ts';
