// Keeping in sync with the change listing (the lead-intake docs/api.md, "Reading and updating"):
// `GET .../leads?updated_since=<time>`, then its `next` pages to the end. Kept between
// polls: the newest `updated_at` seen, the `checkpoint`. Asked again from it, the listing
// misses no lead created or changed meanwhile, even one whose write committed late; a
// lead stamped exactly at the checkpoint comes once more, so apply changes idempotently
// (by `id` and `updated_at`).
import type { operations } from './schema.d.ts';

type LeadPage = operations['listLeads']['responses'][200]['content']['application/json'];
export type ChangedLead = LeadPage['items'][number];

/** Whatever can list leads: the client's `listLeads`. */
export type ListLeads = (query: {
  updated_since?: string;
  cursor?: string;
  limit?: number;
}) => Promise<{ data?: LeadPage; error?: unknown; response: Response }>;

/** A refused request: its status and the API's error body (`detail.type`, `detail.errors`). */
export class LeadIntakeError extends Error {
  readonly status: number;
  readonly body: unknown;
  constructor(status: number, body: unknown) {
    const detail = (body as { detail?: { error_str?: string } } | undefined)?.detail;
    super(`lead-intake answered ${status}${detail?.error_str ? `: ${detail.error_str}` : ''}`);
    this.name = 'LeadIntakeError';
    this.status = status;
    this.body = body;
  }
}

export interface ChangeListing extends AsyncIterable<ChangedLead> {
  /** The newest `updated_at` seen so far (`since` until a lead is seen): where to ask from next time. */
  readonly checkpoint: string | undefined;
}

/** Every lead created or changed since `since` (from the beginning when undefined), page after page. */
export function changesSince(listLeads: ListLeads, since: string | undefined, limit = 100): ChangeListing {
  let checkpoint = since;
  return {
    get checkpoint() {
      return checkpoint;
    },
    async *[Symbol.asyncIterator]() {
      let cursor: string | undefined;
      do {
        const { data, error, response } = await listLeads({
          ...(since !== undefined && { updated_since: since }),
          ...(cursor !== undefined && { cursor }),
          limit,
        });
        if (!data) throw new LeadIntakeError(response.status, error);
        for (const lead of data.items) {
          if (checkpoint === undefined || Date.parse(lead.updated_at) > Date.parse(checkpoint)) {
            checkpoint = lead.updated_at;
          }
          yield lead;
        }
        // `next` is an absolute URL built from the server's PUBLIC_URL; only its cursor is
        // taken, so the client keeps calling the base URL it was given.
        cursor = data.next ? (new URL(data.next).searchParams.get('cursor') ?? undefined) : undefined;
      } while (cursor !== undefined);
    },
  };
}
