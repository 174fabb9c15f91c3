// Updating a party (docs/design.md section 2; docs/api.md, "Reading and updating"): a JSON Merge
// Patch (RFC 7396) of the party as GET shows it, guarded by If-Match, checked with the
// push's schemas and rules and written in one transaction with its party.updated event.
import type { Kysely } from 'kysely';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import type { TransactionRunner } from '../../db/transaction-runner.ts';
import { newRowId } from '../../db/ids.ts';
import { commitWrite } from '../../db/write.ts';
import { ConflictError, ValidationError, type Problem } from '../../errors.ts';
import { createAjvCompilers, type Validate } from '../../http/validation.ts';
import { WebhookOutbox } from '../../webhooks/webhook.outbox.ts';
import { writeClock } from '../store/change-clock.repository.ts';
import { stampAfter } from '../store/lead-stamp.ts';
import { applyChangeset } from '../store/changeset.repository.ts';
import { etagOf, requireIfMatch } from '../model/etag.ts';
import type { LeadResponse } from '../model/lead.response.ts';
import { partyChanges } from '../work/lead-change.ts';
import { loadLeadForUpdate } from '../store/lead-load.repository.ts';
import { partyMatchKey } from '../push/match-key.ts';
import { matchKeyConflict } from '../push/matching.ts';
import { newIds } from '../push/merge.ts';
import {
  applyMergePatch,
  documentOf,
  mergePartyDocument,
  misplacedRiskObjects,
  patchedRiskObjects,
  type PatchedRiskObject,
} from './merge-patch.ts';
import type { Document, LeadAggregate } from '../model/party.aggregate.ts';
import { findMatchKeyOwner, findRiskObjectOwners } from '../push/key-owners.repository.ts';
import { CompanyPartyDocument, CustomerPartyDocument, type PartyResponse } from '../model/party.schema.ts';
import { checkEnterpriseNumber, checkPartyDocument } from '../model/payload-rules.ts';
import { representLead, representParty } from '../model/representation.ts';
import { missingParty } from '../privacy/erased-or-unknown.ts';
import { findErasedParty } from '../privacy/tombstone.repository.ts';
import type { AnswerInWrite } from '../../idempotency/idempotent-write.ts';

export interface PatchCommand {
  readonly distributionId: string;
  readonly partyId: string;
  /** The body as sent: a merge patch of the party document. */
  readonly patch: unknown;
  readonly ifMatch: string | undefined;
  /** Who: `token:<id>` or `user:<id>` (describeCaller), kept in the change log. */
  readonly caller: string;
  /** The Idempotency-Key's answer, kept in the patch's transaction: its first step and its last. */
  readonly keptAnswer?: AnswerInWrite<PatchResult>;
}

export interface PatchResult {
  readonly party: PartyResponse;
  readonly etag: string;
  readonly changed: boolean;
  /** The lead after the patch, as the party.updated event carries it. */
  readonly lead: LeadResponse;
}

export class PartyPatchService {
  readonly #config: Config;
  readonly #transactions: TransactionRunner;
  readonly #outbox: WebhookOutbox | undefined;
  readonly #validators: Record<'CUSTOMER' | 'COMPANY', Validate>;

  constructor(deps: { config: Config; transactions: TransactionRunner; outbox?: WebhookOutbox }) {
    this.#config = deps.config;
    this.#transactions = deps.transactions;
    this.#outbox = deps.outbox;
    // The same Ajv setup that validates request bodies validates the patched document.
    const { compileBody } = createAjvCompilers();
    this.#validators = { CUSTOMER: compileBody(CustomerPartyDocument), COMPANY: compileBody(CompanyPartyDocument) };
  }

  async patch(command: PatchCommand): Promise<PatchResult> {
    return commitWrite(
      this.#transactions,
      async (trx) => {
        await command.keptAnswer?.begin(trx);
        const result = await this.#patchOnce(trx, command);
        await command.keptAnswer?.keep(trx, result);
        return result;
      },
      (result) => {
        // Committed: the worker may look for the new event now.
        if (result.changed && WebhookOutbox.hasRecipients(result.lead)) this.#outbox?.committed();
      },
    );
  }

  /** The party reply and the lead representation (an event's payload) it is built from. */
  #represent(lead: LeadAggregate): { party: PartyResponse; etag: string; lead: LeadResponse } {
    const representation = representLead(lead, this.#config);
    return { party: representParty(lead, representation, this.#config), etag: etagOf(lead), lead: representation };
  }

  async #patchOnce(db: Kysely<Database>, command: PatchCommand): Promise<PatchResult> {
    const found = await loadLeadForUpdate(db, command.partyId);
    if (!found || found.distributionId !== command.distributionId)
      throw missingParty(await findErasedParty(db, command.distributionId, command.partyId));
    const stored = found;
    requireIfMatch(command.ifMatch, stored);
    const subject = 'PartyPatch';
    const document = applyMergePatch(documentOf(stored), command.patch) as Document;
    const invalid = this.#validators[stored.type](document);
    const problems: Problem[] = invalid === true ? [] : [...invalid.error.problems];
    problems.push(...checkPartyDocument(document), ...checkEnterpriseNumber(command.patch, ''));
    if (problems.length > 0) throw new ValidationError(problems, subject);
    await this.#checkRiskObjectIds(db, stored, document);

    const now = stampAfter(await writeClock(db), stored.updated_at);
    const { lead, changes } = mergePartyDocument(stored, document, { now, ids: newIds });
    if (changes.head === undefined) return { ...this.#represent(stored), changed: false };

    const matchKey = partyMatchKey(lead);
    const storedMatchKey = partyMatchKey(stored);
    if (matchKey !== null && matchKey !== storedMatchKey) {
      matchKeyConflict(lead.partyId, await findMatchKeyOwner(db, lead.distributionId, matchKey), {
        target: 'email',
        subject,
      });
    }
    await applyChangeset(db, lead, changes, {
      matchKey,
      storedMatchKey,
      // The timeline's record of the PATCH: what changed, and who changed it.
      changeLog: {
        id: newRowId(),
        lead_id: lead.leadId,
        party_id: lead.partyId,
        distribution_id: lead.distributionId,
        changed_at: now,
        caller: command.caller,
        subject: 'party',
        changes: JSON.stringify(partyChanges(stored, lead)),
      },
    });
    const result = { ...this.#represent(lead), changed: true };
    await this.#outbox?.record(db, {
      type: 'party.updated',
      lead: result.lead,
      distributionId: lead.distributionId,
      at: now,
    });
    return result;
  }

  /**
   * A new risk object's id must be free: another party's is a 409; one of this party's own
   * removed objects cannot be a new one (422, as in a push), nor a stored one listed under
   * the other kind.
   */
  async #checkRiskObjectIds(db: Kysely<Database>, stored: LeadAggregate, document: Document): Promise<void> {
    const own = new Set(stored.riskObjects.map((object) => object.id));
    const listed = patchedRiskObjects(document);
    const newIds = listed.map((w) => w.item.id).filter((id): id is string => typeof id === 'string' && !own.has(id));
    const owners = new Map((await findRiskObjectOwners(db, newIds)).map((owner) => [owner.id, owner.party_id]));
    const taken = (w: PatchedRiskObject, byThisParty: boolean) =>
      owners.has(w.item.id as string) && (owners.get(w.item.id as string) === stored.partyId) === byThisParty;
    const conflicts = listed
      .filter((w) => taken(w, false))
      .map((w) => ({ target: w.target, code: 'owned_elsewhere' as const }));
    if (conflicts.length > 0) throw new ConflictError(conflicts, 'PartyPatch');
    const invalid = [
      ...listed.filter((w) => taken(w, true)).map((w) => ({ target: w.target, code: 'invalid' as const })),
      ...misplacedRiskObjects(stored, document),
    ];
    if (invalid.length > 0) throw new ValidationError(invalid, 'PartyPatch');
  }
}
