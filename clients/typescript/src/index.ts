// @lead-intake/client: the typed client of the lead-intake API (README.md).
import { changesSince, type ChangeListing } from './changes.ts';
import { createLeadIntakeClient as createMethods, type LeadIntakeClientOptions } from './client.ts';

export type { ChangedLead, ChangeListing } from './changes.ts';
export { LeadIntakeError } from './changes.ts';
export type { LeadIntakeClientOptions, PatchOptions, ReadOptions, WriteOptions } from './client.ts';
export type { RetryOptions, Send } from './retry.ts';
export { retryAfterMs } from './retry.ts';
export { verifyWebhook, WebhookVerificationError, type WebhookHeaders } from './webhooks.ts';
export type * from './schema.d.ts';

/** The client: a typed method per API operation, and `changes(since)` over the change listing. */
export function createLeadIntakeClient(options: LeadIntakeClientOptions) {
  const methods = createMethods(options);
  return {
    ...methods,
    /**
     * Every lead created or changed since `since`, following the pages to the end. Keep
     * `checkpoint` when done and pass it as `since` next time.
     */
    changes: (since?: string, options: { limit?: number } = {}): ChangeListing =>
      changesSince((query) => methods.listLeads(query), since, options.limit),
  };
}

export type LeadIntakeClient = ReturnType<typeof createLeadIntakeClient>;
