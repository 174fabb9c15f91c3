// The transactional outbox (docs/design.md section 5): the event and one delivery per callback
// URL are written by the same transaction as the change they report, so an accepted push
// never loses its event, whatever happens after the commit; the worker sends them later.
// After the commit the service calls `committed()`, which wakes this process's worker at
// once instead of at its next poll.
import { newRowId } from '../db/ids.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import { deleteStoppedUrls, insertEvent } from './outbox.repository.ts';
import { receiverHost, type WebhookEventType } from './webhook.table.ts';

/**
 * The lead as the API returns it, sent as the event's `data` as it is: the outbox reads
 * only what it files the event under and the callback URLs it sends it to, so it needs
 * nothing of the party module that produces the lead.
 */
export interface LeadPayload {
  readonly id: string;
  readonly party_id: string;
  readonly prospect: { readonly callbacks: readonly string[] };
}

export interface LeadEvent {
  readonly type: WebhookEventType;
  readonly lead: LeadPayload;
  readonly distributionId: string;
  /** When the change happened (the push's or update's time). */
  readonly at: string;
}

export class WebhookOutbox {
  readonly #listeners = new Set<() => void>();

  /** True when an event was written: the prospect has callbacks to send it to. */
  static hasRecipients(lead: LeadPayload): boolean {
    return lead.prospect.callbacks.length > 0;
  }

  /** Writes the event and its deliveries in the caller's transaction. */
  async record(db: Kysely<Database>, event: LeadEvent): Promise<void> {
    await this.#write(db, event, { leadId: event.lead.id, partyId: event.lead.party_id }, event.lead);
  }

  /**
   * `lead.erased` (docs/design.md section 15): ids and time only, to the callbacks the
   * prospect had. Written after the person's rows (and earlier events) were deleted.
   */
  async recordErasure(
    db: Kysely<Database>,
    erasure: { distributionId: string; leadId: string; partyId: string; at: string; callbacks: readonly string[] },
  ): Promise<void> {
    await this.#write(
      db,
      { type: 'lead.erased', distributionId: erasure.distributionId, at: erasure.at, urls: erasure.callbacks },
      { leadId: erasure.leadId, partyId: erasure.partyId },
      { id: erasure.leadId, party_id: erasure.partyId, erased_at: erasure.at },
    );
  }

  /**
   * `party.merged` (docs/api.md, "Merging two parties"): the four ids, to the callbacks of
   * both parties (the survivor holds them all after the merge), filed under the survivor.
   */
  async recordMerge(
    db: Kysely<Database>,
    merge: {
      distributionId: string;
      at: string;
      callbacks: readonly string[];
      partyId: string;
      leadId: string;
      mergedPartyId: string;
      mergedLeadId: string;
    },
  ): Promise<void> {
    await this.#write(
      db,
      { type: 'party.merged', distributionId: merge.distributionId, at: merge.at, urls: merge.callbacks },
      { leadId: merge.leadId, partyId: merge.partyId },
      {
        party_id: merge.partyId,
        merged_party_id: merge.mergedPartyId,
        lead_id: merge.leadId,
        merged_lead_id: merge.mergedLeadId,
      },
    );
  }

  async #write(
    db: Kysely<Database>,
    event: { type: WebhookEventType; distributionId: string; at: string; urls?: readonly string[]; lead?: LeadPayload },
    about: { leadId: string; partyId: string },
    data: unknown,
  ): Promise<void> {
    const urls = event.urls ?? event.lead?.prospect.callbacks ?? [];
    if (urls.length === 0) return;
    const id = newRowId();
    const payload = JSON.stringify({
      id,
      type: event.type,
      created_at: event.at,
      distribution_id: event.distributionId,
      data,
    });
    await insertEvent(
      db,
      {
        id,
        distribution_id: event.distributionId,
        type: event.type,
        lead_id: about.leadId,
        party_id: about.partyId,
        payload,
        created_at: event.at,
      },
      urls.map((url) => ({
        id: newRowId(),
        event_id: id,
        distribution_id: event.distributionId,
        url,
        host: receiverHost(url),
        status: 'pending' as const,
        next_attempt_at: event.at,
        claim_id: null,
        attempts: 0,
        round_start: 0,
        last_status_code: null,
        last_error: null,
        created_at: event.at,
        updated_at: event.at,
      })),
    );
  }

  /**
   * A push that lists a callback URL again resumes deliveries to it after its receiver
   * answered 410 Gone: the platform is telling us, now, that the URL is wanted.
   */
  async resume(db: Kysely<Database>, distributionId: string, urls: readonly string[]): Promise<void> {
    if (urls.length === 0) return;
    await deleteStoppedUrls(db, distributionId, urls);
  }

  /** Call after a transaction that recorded events has committed. */
  committed(): void {
    for (const listener of this.#listeners) listener();
  }

  /** `listener` runs after each commit with new events; returns the unsubscribe. */
  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
