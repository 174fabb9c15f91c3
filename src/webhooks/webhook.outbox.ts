// The transactional outbox (docs/design.md section 5): the event and one delivery per callback
// URL are written by the same transaction as the change they report, so an accepted push
// never loses its event, whatever happens after the commit; the worker sends them later.
// After the commit the service calls `committed()`, which wakes this process's worker at
// once instead of at its next poll.
import { setTimeout as sleep } from 'node:timers/promises';
import { newRowId } from '../db/ids.ts';
import type { Kysely } from 'kysely';
import { systemClock, type Clock } from '../clock.ts';
import type { Database } from '../db/database.ts';
import type { TransactionRunner } from '../db/transaction-runner.ts';
import {
  forgetRevokedClaims,
  type RevokedClaim,
  revokeClaimsOfLead,
  unsettledClaims,
} from './delivery/claim-revocation.repository.ts';
import { type EventRows, forgetStoppedUrls, writeOutbox } from './outbox.repository.ts';
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

/** An event to write: what it is, and where it goes (its URLs, or the lead's callbacks). */
interface EventOf {
  readonly type: WebhookEventType;
  readonly distributionId: string;
  readonly at: string;
  readonly urls?: readonly string[];
  readonly lead?: LeadPayload;
}

/** The lead and party an event is filed under. */
interface EventAbout {
  readonly leadId: string;
  readonly partyId: string;
}

/** How often an erasure looks whether the workers are done with the claims it took back. */
const SETTLE_POLL_MS = 10;

export type { RevokedClaim } from './delivery/claim-revocation.repository.ts';

export class WebhookOutbox {
  readonly #listeners = new Set<() => void>();
  readonly #revocationListeners = new Set<(claims: readonly RevokedClaim[]) => void>();
  readonly #clock: Clock;

  /** `clock`: what decides when a revoked claim's lease is over (the workers' clock). */
  constructor(clock: Clock = systemClock) {
    this.#clock = clock;
  }

  /** True when an event was written: the prospect has callbacks to send it to. */
  static hasRecipients(lead: LeadPayload): boolean {
    return lead.prospect.callbacks.length > 0;
  }

  /** Writes the event and its deliveries in the caller's transaction. */
  async record(db: Kysely<Database>, event: LeadEvent): Promise<void> {
    await this.#write(db, event, { leadId: event.lead.id, partyId: event.lead.party_id }, event.lead);
  }

  /**
   * What a push adds to the outbox, in its transaction: its event when it changed the lead,
   * and the callback URLs it lists resumed. A push that lists a URL again resumes deliveries
   * to it after its receiver answered 410 Gone: the platform is telling us, now, that the URL
   * is wanted. On PostgreSQL both are one statement.
   */
  async recordPush(
    db: Kysely<Database>,
    push: { readonly distributionId: string; readonly callbacks: readonly string[]; readonly event?: LeadEvent },
  ): Promise<void> {
    const { distributionId, callbacks, event } = push;
    const rows = event && this.#rows(event, { leadId: event.lead.id, partyId: event.lead.party_id }, event.lead);
    if (callbacks.length === 0 && rows === undefined) return;
    await writeOutbox(db, {
      ...(callbacks.length > 0 && { resume: { distributionId, urls: callbacks } }),
      ...(rows && { event: rows }),
    });
  }

  /**
   * `lead.erased` (docs/design.md section 15): ids and time only, to the callbacks the
   * prospect had. Written after the person's rows (and earlier events) were deleted.
   * A receiver's 410 Gone remembered for a URL only the erased person listed
   * (`callbacksOnlyTheirs`) is forgotten with them (section 14), and that URL gets no
   * `lead.erased`: its receiver said it is gone. The deliveries keep their URL until done
   * (delivery.repository.ts).
   */
  async recordErasure(
    db: Kysely<Database>,
    erasure: {
      distributionId: string;
      leadId: string;
      partyId: string;
      at: string;
      callbacks: readonly string[];
      callbacksOnlyTheirs: readonly string[];
    },
  ): Promise<void> {
    const gone = new Set(await forgetStoppedUrls(db, erasure.distributionId, erasure.callbacksOnlyTheirs));
    const urls = erasure.callbacks.filter((url) => !gone.has(url));
    await this.#write(
      db,
      { type: 'lead.erased', distributionId: erasure.distributionId, at: erasure.at, urls },
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

  async #write(db: Kysely<Database>, event: EventOf, about: EventAbout, data: unknown): Promise<void> {
    const rows = this.#rows(event, about, data);
    if (rows) await writeOutbox(db, { event: rows });
  }

  /** The event's row and one delivery per URL it goes to; undefined when it goes nowhere. */
  #rows(event: EventOf, about: EventAbout, data: unknown): EventRows | undefined {
    const urls = event.urls ?? event.lead?.prospect.callbacks ?? [];
    if (urls.length === 0) return undefined;
    const id = newRowId();
    const payload = JSON.stringify({
      id,
      type: event.type,
      created_at: event.at,
      distribution_id: event.distributionId,
      data,
    });
    return {
      event: {
        id,
        distribution_id: event.distributionId,
        type: event.type,
        lead_id: about.leadId,
        party_id: about.partyId,
        payload,
        created_at: event.at,
      },
      deliveries: urls.map((url) => ({ id: newRowId(), url, host: receiverHost(url) })),
    };
  }

  /**
   * An erasure, in its transaction and before the person's deliveries are deleted, takes
   * back the claims workers hold on them (docs/design.md section 14): a claimed delivery
   * may be waiting in a worker's queue or on its way to the receiver.
   */
  revokeClaims(db: Kysely<Database>, leadId: string): Promise<RevokedClaim[]> {
    return revokeClaimsOfLead(db, leadId);
  }

  /**
   * After the erasure's commit, before it answers: this process's worker drops the revoked
   * deliveries it has not started, a worker elsewhere when it next claims, and this waits
   * until every worker is done with them (a delivery already on its way has been answered),
   * or until their lease is over (no worker sends after that). Nothing carrying the person
   * reaches a receiver after the erasure has answered.
   */
  async settleRevokedClaims(transactions: TransactionRunner, db: Kysely<Database>, claims: readonly RevokedClaim[]) {
    if (claims.length === 0) return;
    for (const listener of this.#revocationListeners) listener(claims);
    let left = claims;
    for (;;) {
      left = await unsettledClaims(db, left);
      if (left.length === 0) return;
      const now = this.#clock.now();
      if (left.every((claim) => Date.parse(claim.until) <= now)) {
        await transactions.run((trx) => forgetRevokedClaims(trx, left));
        return;
      }
      await sleep(SETTLE_POLL_MS);
    }
  }

  /** `listener` runs when an erasure in this process took back claims; returns the unsubscribe. */
  subscribeRevocations(listener: (claims: readonly RevokedClaim[]) => void): () => void {
    this.#revocationListeners.add(listener);
    return () => this.#revocationListeners.delete(listener);
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
