// Pushing a lead: match (matching.ts), check references (references.ts), merge
// (merge.ts), write (repository.ts), all in one transaction, with the accepted
// push appended to the push log (docs/design.md rule 11).
import { newRowId } from '../db/ids.ts';
import type { Kysely } from 'kysely';
import type { Config } from '../config.ts';
import type { Database, DatabaseHandle } from '../db/database.ts';
import type { TransactionRunner } from '../db/transaction-runner.ts';
import { commitWrite } from '../db/write.ts';
import { describeCaller, type Caller } from '../auth/caller.ts';
import type { LeadBody } from './lead.schema.ts';
import type { LeadResponse } from './lead.response.ts';
import type { PartyType } from './party.table.ts';
import type { Fields, LeadAggregate } from './party.aggregate.ts';
import { customerMatchKey, mergePush } from './merge.ts';
import { toLeadPush } from './push.ts';
import { checkMatchKey, matchParty } from './matching.ts';
import { certainlyDanglingReferences, checkReferences } from './references.ts';
import { insertCallbacks, insertPush, insertRefs, loadLeadForUpdate, saveChildren, saveLead } from './repository.ts';
import { writeClock } from './change-clock.ts';
import { lockPushKeys } from './push-locks.ts';
import { representLead } from './representation.ts';
import { duplicateProblems } from './uniqueness.ts';
import { ValidationError } from '../errors.ts';
import { WebhookOutbox } from '../webhooks/webhook.outbox.ts';

export interface PushCommand {
  readonly distributionId: string;
  readonly kind: PartyType;
  readonly body: LeadBody;
  readonly rawBody: string;
  readonly caller: Caller;
}

export interface PushResult {
  readonly created: boolean;
  /** False when a merge found nothing new to store. */
  readonly changed: boolean;
  readonly lead: LeadResponse;
}

export interface LeadServiceDependencies {
  readonly database: DatabaseHandle;
  readonly config: Config;
  readonly transactions: TransactionRunner;
  /** Where `lead.created` / `lead.updated` events go, in the push's transaction. */
  readonly outbox?: WebhookOutbox;
}

export class LeadService {
  readonly #deps: LeadServiceDependencies;

  constructor(deps: LeadServiceDependencies) {
    this.#deps = deps;
  }

  async push(command: PushCommand): Promise<PushResult> {
    return commitWrite(this.#deps.transactions, (trx) => this.#pushOnce(trx, command), (result) => {
      // Committed: the worker may look for the new event now (a new lead counts as changed).
      if (result.changed && WebhookOutbox.hasRecipients(result.lead)) this.#deps.outbox?.committed();
    });
  }

  /**
   * A push refused by its schema: the problems found so far, plus the references in it
   * that certainly name nothing, in one 422 (docs/design.md section 3). Writes nothing.
   */
  async refusal(schemaError: ValidationError, body: unknown): Promise<ValidationError> {
    const dangling = await certainlyDanglingReferences(this.#deps.database.db, body);
    if (dangling.length === 0) return schemaError;
    const targets = new Set(schemaError.problems.map((problem) => problem.target));
    const problems = [...schemaError.problems, ...dangling.filter((problem) => !targets.has(problem.target))];
    return new ValidationError(problems, schemaError.subject);
  }

  async #pushOnce(db: Kysely<Database>, command: PushCommand): Promise<PushResult> {
    const { distributionId, kind, body } = command;
    const subject = kind === 'CUSTOMER' ? 'CustomerLead' : 'CompanyLead';
    const now = await writeClock(db);

    await lockPushKeys(db, distributionId, body);
    const partyId = await matchParty(db, distributionId, kind, body, subject);
    const stored = partyId === undefined ? undefined : await loadLeadForUpdate(db, partyId);
    await checkReferences(db, distributionId, body, stored, subject);

    const lead = stored ?? emptyLead(distributionId, kind, now);
    // The key matching looked up for a new lead, the stored one for a merge.
    const knownKey = kind === 'CUSTOMER' ? customerMatchKey(stored?.fields ?? (body.prospect as Fields)) : null;
    const refsBefore = lead.refs.length;
    const callbacksBefore = lead.callbacks.length;
    const push = toLeadPush(body);
    const changed = mergePush(lead, push, now) || stored === undefined;
    const duplicates = duplicateProblems(lead, push);
    if (duplicates.length > 0) throw new ValidationError(duplicates, subject);

    const matchKey = await checkMatchKey(db, lead, knownKey, { target: 'prospect.email', subject });

    if (changed) {
      await saveLead(db, lead, { isNew: stored === undefined, matchKey });
      await insertRefs(db, distributionId, 'party', lead.partyId, lead.refs.slice(refsBefore), now);
      await insertCallbacks(db, lead.partyId, lead.callbacks.slice(callbacksBefore), now);
      await saveChildren(db, lead);
    }
    const created = stored === undefined;
    const response = representLead(lead, this.#deps.config);
    const outbox = this.#deps.outbox;
    // Only a push that carries or reaches callbacks costs any webhook work.
    if (outbox && body.prospect.callbacks?.length) await outbox.resume(db, distributionId, body.prospect.callbacks);
    if (outbox && changed) await outbox.record(db, { type: created ? 'lead.created' : 'lead.updated', lead: response, distributionId, at: now });
    await insertPush(db, {
      id: newRowId(),
      lead_id: lead.leadId,
      distribution_id: distributionId,
      received_at: now,
      status: created ? 201 : 200,
      caller: describeCaller(command.caller),
      origin: body.origin ?? null,
      kind,
      payload: command.rawBody,
    });
    return { created, changed, lead: response };
  }
}

function emptyLead(distributionId: string, type: PartyType, now: string): LeadAggregate {
  return {
    leadId: newRowId(),
    partyId: newRowId(),
    distributionId,
    type,
    meta: {},
    fields: {},
    version: 1,
    refs: [],
    callbacks: [],
    riskObjects: [],
    packages: [],
    policies: [],
    created_at: now,
    updated_at: now,
  };
}
