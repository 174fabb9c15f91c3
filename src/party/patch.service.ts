// Reading and updating a party (issue 5): the prospect with its current risk objects,
// policy packages, policies and coverages; risk object revisions; and JSON Merge Patch
// updates guarded by If-Match, in one transaction each.
import type { Kysely } from 'kysely';
import type { Config } from '../config.ts';
import type { Database, DatabaseHandle } from '../db/database.ts';
import type { TransactionRunner } from '../db/transaction-runner.ts';
import { commitWrite } from '../db/write.ts';
import { ApiError, ConflictError, NotFoundError, ValidationError, type Problem } from '../errors.ts';
import { createAjvCompilers, type Validate } from '../http/validation.ts';
import { WebhookOutbox } from '../webhooks/webhook.outbox.ts';
import { stampAfter, writeClock } from './change-clock.ts';
import { applyChangeset } from './changeset.repository.ts';
import { etagOf } from './etag.ts';
import type { LeadResponse } from './lead.response.ts';
import { loadLead, loadLeadForUpdate } from './lead-load.repository.ts';
import { findPartyKind, listRevisionRows } from './lead-read.repository.ts';
import { customerMatchKey } from './match-key.ts';
import { matchKeyConflict } from './matching.ts';
import { newIds } from './merge.ts';
import {
  applyMergePatch,
  documentOf,
  mergePartyDocument,
  misplacedRiskObjects,
  patchedRiskObjects,
  type PatchedRiskObject,
} from './merge-patch.ts';
import type { Document, LeadAggregate } from './party.aggregate.ts';
import { findMatchKeyOwner, findRiskObjectOwners } from './party.repository.ts';
import { CompanyPartyDocument, CustomerPartyDocument, type PartyResponse } from './party.schema.ts';
import { checkPartyDocument } from './payload-rules.ts';
import { partyUrl, representLead } from './representation.ts';

export interface PatchResult {
  readonly party: PartyResponse;
  readonly etag: string;
  readonly changed: boolean;
  /** The lead after the patch, as the party.updated event carries it. */
  readonly lead: LeadResponse;
}

export class PartyService {
  readonly #database: DatabaseHandle;
  readonly #config: Config;
  readonly #transactions: TransactionRunner;
  readonly #outbox: WebhookOutbox | undefined;
  readonly #validators: Record<'CUSTOMER' | 'COMPANY', Validate>;

  constructor(deps: {
    database: DatabaseHandle;
    config: Config;
    transactions: TransactionRunner;
    outbox?: WebhookOutbox;
  }) {
    this.#database = deps.database;
    this.#config = deps.config;
    this.#transactions = deps.transactions;
    this.#outbox = deps.outbox;
    // The same Ajv setup that validates request bodies validates the patched document.
    const { compileBody } = createAjvCompilers();
    this.#validators = { CUSTOMER: compileBody(CustomerPartyDocument), COMPANY: compileBody(CompanyPartyDocument) };
  }

  async get(distributionId: string, partyId: string): Promise<{ party: PartyResponse; etag: string }> {
    const { party, etag } = this.#represent(await this.#load(this.#database.db, distributionId, partyId, false));
    return { party, etag };
  }

  async revisions(distributionId: string, partyId: string, riskObjectId: string) {
    const db = this.#database.db;
    // Another distribution's party is as unknown as one that does not exist.
    if ((await findPartyKind(db, distributionId, partyId)) === undefined) throw new NotFoundError('party_id');
    const found = await listRevisionRows(db, partyId, riskObjectId);
    if (!found) throw new NotFoundError('risk_object_id');
    const base = `${partyUrl(this.#config, distributionId, partyId)}/risk_objects/${riskObjectId}/revisions`;
    return found.revisions.map((revision) => ({
      self: `${base}/${revision.id}`,
      risk_object_id: riskObjectId,
      risk_object_revision_id: revision.id,
      risk_object_type: found.object.type,
      revision_nr: Number(revision.revision_nr),
      current: revision.id === found.object.current_revision_id,
      created_at: revision.created_at,
      data: JSON.parse(revision.data) as Record<string, unknown>,
    }));
  }

  async patch(command: {
    distributionId: string;
    partyId: string;
    patch: unknown;
    ifMatch: string | undefined;
  }): Promise<PatchResult> {
    return commitWrite(
      this.#transactions,
      (trx) => this.#patchOnce(trx, command),
      (result) => {
        // Committed: the worker may look for the new event now.
        if (result.changed && WebhookOutbox.hasRecipients(result.lead)) this.#outbox?.committed();
      },
    );
  }

  /** The party reply and the lead representation (an event's payload) it is built from. */
  #represent(lead: LeadAggregate): { party: PartyResponse; etag: string; lead: LeadResponse } {
    const representation = representLead(lead, this.#config);
    const { prospect, risk_object_revisions, policy_packages, insurance_policies, created_at, updated_at } =
      representation;
    const party = {
      ...prospect,
      lead_id: lead.leadId,
      risk_objects: risk_object_revisions,
      policy_packages,
      insurance_policies,
      self: partyUrl(this.#config, lead.distributionId, lead.partyId),
      created_at,
      updated_at,
    };
    return { party, etag: etagOf(lead), lead: representation };
  }

  async #load(
    db: Kysely<Database>,
    distributionId: string,
    partyId: string,
    forUpdate: boolean,
  ): Promise<LeadAggregate> {
    const lead = await (forUpdate ? loadLeadForUpdate(db, partyId) : loadLead(db, partyId));
    // Another distribution's party is as unknown as one that does not exist.
    if (!lead || lead.distributionId !== distributionId) throw new NotFoundError('party_id');
    return lead;
  }

  async #patchOnce(
    db: Kysely<Database>,
    command: { distributionId: string; partyId: string; patch: unknown; ifMatch: string | undefined },
  ): Promise<PatchResult> {
    const stored = await this.#load(db, command.distributionId, command.partyId, true);
    if (command.ifMatch !== undefined && !matchesEtag(command.ifMatch, etagOf(stored))) {
      throw new ApiError(412, 'PreconditionFailed', [{ target: 'If-Match', code: 'precondition_failed' }]);
    }
    const subject = 'PartyPatch';
    const document = applyMergePatch(documentOf(stored), command.patch) as Document;
    const invalid = this.#validators[stored.type](document);
    const problems: Problem[] = invalid === true ? [] : [...invalid.error.problems];
    problems.push(...checkPartyDocument(document));
    if (problems.length > 0) throw new ValidationError(problems, subject);
    await this.#checkRiskObjectIds(db, stored, document);

    const now = stampAfter(await writeClock(db), stored.updated_at);
    const { lead, changes } = mergePartyDocument(stored, document, { now, ids: newIds });
    if (changes.head === undefined) return { ...this.#represent(stored), changed: false };

    const matchKey = lead.type === 'CUSTOMER' ? customerMatchKey(lead.fields) : null;
    if (matchKey !== null && matchKey !== customerMatchKey(stored.fields)) {
      matchKeyConflict(lead.partyId, await findMatchKeyOwner(db, lead.distributionId, matchKey), {
        target: 'email',
        subject,
      });
    }
    await applyChangeset(db, lead, changes, { matchKey });
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

/** RFC 9110 section 13.1.1: `*` or a list of entity tags; weak tags never match If-Match. */
function matchesEtag(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  return header
    .split(',')
    .map((tag) => tag.trim())
    .includes(etag);
}
