// Reading and updating a party (issue 5): the prospect with its current risk objects,
// policy packages, policies and coverages; risk object revisions; and JSON Merge Patch
// updates guarded by If-Match, in one transaction each.
import { isDeepStrictEqual } from 'node:util';
import type { Kysely } from 'kysely';
import type { Config } from '../config.ts';
import type { Database, DatabaseHandle } from '../db/database.ts';
import type { TransactionRunner } from '../db/transaction-runner.ts';
import { commitWrite } from '../db/write.ts';
import { ApiError, ConflictError, NotFoundError, ValidationError, type Problem } from '../errors.ts';
import { createAjvCompilers, type Validate } from '../http/validation.ts';
import type { Fields, LeadAggregate } from './party.aggregate.ts';
import { addRiskObject, customerMatchKey, reviseRiskObject, withoutNulls } from './merge.ts';
import { checkMatchKey } from './matching.ts';
import { findOwners, findPartyKind, loadLead, loadLeadForUpdate, saveChildren, saveLead } from './repository.ts';
import { partyUrl, representLead } from './representation.ts';
import type { LeadResponse } from './lead.response.ts';
import { etagOf } from './read.service.ts';
import { listRevisionRows } from './repository.ts';
import { checkPartyDocument } from './payload-rules.ts';
import type { RiskObjectType } from './party.table.ts';
import { writeClock } from './change-clock.ts';
import { applyMergePatch } from './merge-patch.ts';
import { CompanyPartyDocument, CustomerPartyDocument, type PartyResponse } from './party.schema.ts';
import { WebhookOutbox } from '../webhooks/webhook.outbox.ts';


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

  constructor(deps: { database: DatabaseHandle; config: Config; transactions: TransactionRunner; outbox?: WebhookOutbox }) {
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

  async patch(command: { distributionId: string; partyId: string; patch: unknown; ifMatch: string | undefined }): Promise<PatchResult> {
    return commitWrite(this.#transactions, (trx) => this.#patchOnce(trx, command), (result) => {
      // Committed: the worker may look for the new event now.
      if (result.changed && WebhookOutbox.hasRecipients(result.lead)) this.#outbox?.committed();
    });
  }

  /** The party reply and the lead representation (an event's payload) it is built from. */
  #represent(lead: LeadAggregate): { party: PartyResponse; etag: string; lead: LeadResponse } {
    const representation = representLead(lead, this.#config);
    const { prospect, risk_object_revisions, policy_packages, insurance_policies, created_at, updated_at } = representation;
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

  async #load(db: Kysely<Database>, distributionId: string, partyId: string, forUpdate: boolean): Promise<LeadAggregate> {
    const lead = await (forUpdate ? loadLeadForUpdate(db, partyId) : loadLead(db, partyId));
    // Another distribution's party is as unknown as one that does not exist.
    if (!lead || lead.distributionId !== distributionId) throw new NotFoundError('party_id');
    return lead;
  }

  async #patchOnce(
    db: Kysely<Database>,
    command: { distributionId: string; partyId: string; patch: unknown; ifMatch: string | undefined },
  ): Promise<PatchResult> {
    const lead = await this.#load(db, command.distributionId, command.partyId, true);
    if (command.ifMatch !== undefined && !matchesEtag(command.ifMatch, etagOf(lead))) {
      throw new ApiError(412, 'PreconditionFailed', [{ target: 'If-Match', code: 'precondition_failed' }]);
    }
    const subject = 'PartyPatch';
    const document = applyMergePatch(documentOf(lead), command.patch);
    const invalid = this.#validators[lead.type](document);
    const problems: Problem[] = invalid === true ? [] : [...invalid.error.problems];
    problems.push(...checkPartyDocument(document));
    if (problems.length > 0) throw new ValidationError(problems, subject);

    const now = await writeClock(db);
    const { risk_objects: riskObjects, ...fields } = document as Fields & { risk_objects?: { cars?: Fields[]; residences?: Fields[] } };
    const storedKey = customerMatchKey(lead.fields);
    const patchedFields = withoutNulls(fields);
    let changed = !isDeepStrictEqual(patchedFields, lead.fields);
    lead.fields = patchedFields;
    changed = (await this.#replaceRiskObjects(db, lead, riskObjects ?? {}, now)) || changed;
    if (!changed) return { ...this.#represent(lead), changed };

    const matchKey = await checkMatchKey(db, lead, storedKey, { target: 'email', subject });
    lead.updated_at = now;
    await saveLead(db, lead, { isNew: false, matchKey });
    await saveChildren(db, lead);
    lead.riskObjects = lead.riskObjects.filter((object) => !object.removed);
    const result = { ...this.#represent(lead), changed };
    await this.#outbox?.record(db, { type: 'party.updated', lead: result.lead, distributionId: lead.distributionId, at: now });
    return result;
  }

  /** Arrays replace (RFC 7396): the patched lists are the party's risk objects now. */
  async #replaceRiskObjects(db: Kysely<Database>, lead: LeadAggregate, lists: { cars?: Fields[]; residences?: Fields[] }, now: string): Promise<boolean> {
    const wanted: Array<{ type: RiskObjectType; item: Fields; target: string }> = [
      ...(lists.cars ?? []).map((item, i) => ({ type: 'CAR' as const, item, target: `risk_objects.cars.${i}.id` })),
      ...(lists.residences ?? []).map((item, i) => ({ type: 'RESIDENCE' as const, item, target: `risk_objects.residences.${i}.id` })),
    ];
    const stored = new Map(lead.riskObjects.map((object) => [object.id, object]));
    const newIds = wanted.map((w) => w.item.id).filter((id): id is string => typeof id === 'string' && !stored.has(id));
    const owners = await findOwners(db, 'risk_objects', newIds);
    const conflicts = wanted.filter((w) => owners.some((o) => o.id === w.item.id)).map((w) => ({ target: w.target, code: 'owned_elsewhere' as const }));
    if (conflicts.length > 0) throw new ConflictError(conflicts, 'PartyPatch');
    // A car's id listed among the residences (or the other way round) names the wrong kind.
    const misplaced = wanted.filter((w) => typeof w.item.id === 'string' && stored.has(w.item.id) && stored.get(w.item.id)!.type !== w.type);
    if (misplaced.length > 0) throw new ValidationError(misplaced.map((w) => ({ target: w.target, code: 'invalid' as const })), 'PartyPatch');

    let changed = false;
    const kept = new Set<string>();
    for (const { type, item } of wanted) {
      const { id, ...rawData } = item as Fields & { id?: string };
      const data = withoutNulls(rawData);
      const existing = id === undefined ? undefined : stored.get(id);
      if (existing) {
        kept.add(existing.id);
        if (isDeepStrictEqual(existing.current.data, data)) continue;
        reviseRiskObject(existing, data, now);
      } else {
        kept.add(addRiskObject(lead, type, id, data, now).id);
      }
      changed = true;
    }
    for (const object of stored.values()) {
      if (kept.has(object.id)) continue;
      object.removed = true;
      object.updated_at = now;
      changed = true;
    }
    return changed;
  }
}

function documentOf(lead: LeadAggregate): Fields {
  const list = (type: RiskObjectType) => lead.riskObjects.filter((o) => o.type === type).map((o) => ({ id: o.id, ...o.current.data }));
  return { ...lead.fields, risk_objects: { cars: list('CAR'), residences: list('RESIDENCE') } };
}

/** RFC 9110 section 13.1.1: `*` or a list of entity tags; weak tags never match If-Match. */
function matchesEtag(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  return header.split(',').map((tag) => tag.trim()).includes(etag);
}
