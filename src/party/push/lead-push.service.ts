// Pushing a lead (docs/design.md section 2), in one transaction: find what the database
// knows about the push's keys (with the write's clock, in one snapshot), match
// (matching.ts), load the matched lead, check references (push-references.ts), merge
// (merge.ts), and write the changeset with the push's entry in the push log (rule 11).
// Each step but the reads and the write is a pure function of the typed push.
import type { Kysely } from 'kysely';
import type { Config } from '../../config.ts';
import type { Database, DatabaseHandle } from '../../db/database.ts';
import { newRowId } from '../../db/ids.ts';
import type { TransactionRunner } from '../../db/transaction-runner.ts';
import { commitWrite } from '../../db/write.ts';
import { StaleVersionError } from '../../db/errors.ts';
import { describeCaller, type Caller } from '../../auth/caller.ts';
import { ValidationError } from '../../errors.ts';
import { WebhookOutbox } from '../../webhooks/webhook.outbox.ts';
import { stampAfter } from '../store/lead-stamp.ts';
import { applyChangeset } from '../store/changeset.repository.ts';
import type { LeadBody } from '../model/lead.schema.ts';
import type { LeadResponse } from '../model/lead.response.ts';
import { loadLeadForUpdate } from '../store/lead-load.repository.ts';
import { partyMatchKey } from './match-key.ts';
import { matchKeyConflict, matchParty } from './matching.ts';
import { mergePush, newIds } from './merge.ts';
import type { LeadAggregate } from '../model/party.aggregate.ts';
import { findPushCandidates } from './push-candidates.repository.ts';
import { findMatchKeyOwner, findStoredClientIds } from './key-owners.repository.ts';
import type { PartyType } from '../model/party.table.ts';
import { parsePush, type LeadPush } from './push.ts';
import { checkReferences } from './push-references.ts';
import { danglingReferences, idsToLookUp, referencesOutsidePush } from './dangling-references.ts';
import { representLead } from '../model/representation.ts';
import { duplicateProblems } from './uniqueness.ts';
import { erasureQuestions, refuseErased } from './erased-push.ts';
import { withReplacedIds } from './replaced-ids.ts';
import { findMergedParty } from '../party-merge/merged-parties.repository.ts';
import type { RefHasher } from '../privacy/ref-hash.ts';
import type { RefHashes } from '../privacy/ref-hashes.service.ts';
import type { AnswerInWrite, KeyInLookup } from '../../idempotency/idempotent-write.ts';
import type { TokenCheck } from '../../auth/token-check-in-write.ts';
import { type LeadRouting, routedLead, takesTurnAfterWrite } from '../routing/lead-routing.ts';

export interface PushCommand {
  readonly distributionId: string;
  readonly kind: PartyType;
  readonly body: LeadBody;
  readonly rawBody: string;
  readonly caller: Caller;
  /** The Idempotency-Key's answer, kept in the push's transaction: its first step and its last. */
  readonly keptAnswer?: AnswerInWrite<PushResult>;
  /** The API token let through unread (auth/token-check-in-write.ts): the push's lookup reads its row. */
  readonly tokenCheck?: TokenCheck;
}

export interface PushResult {
  readonly created: boolean;
  /** False when a merge found nothing new to store. */
  readonly changed: boolean;
  readonly lead: LeadResponse;
}

export interface LeadPushDependencies {
  readonly database: DatabaseHandle;
  readonly config: Config;
  readonly transactions: TransactionRunner;
  /** Where `lead.created` / `lead.updated` events go, in the push's transaction. */
  readonly outbox?: WebhookOutbox;
  /** Recognises the external refs of erased persons (docs/design.md section 15). */
  readonly refHashes?: RefHashes;
  /** Assigns a new lead by its distribution's routing rules (docs/design.md section 15). */
  readonly routing?: LeadRouting;
}

export class LeadPushService {
  readonly #deps: LeadPushDependencies;

  constructor(deps: LeadPushDependencies) {
    this.#deps = deps;
  }

  async push(command: PushCommand): Promise<PushResult> {
    const push = parsePush(command.body, command.kind);
    // Read before the transaction (on SQLite it holds the only connection), and only the
    // first time: once loaded, nothing here waits, so pushes reach the writer in the order
    // they were made (a batch's items, docs/design.md section 14).
    const refHashes = this.#deps.refHashes;
    const hash = push.refs.length === 0 ? undefined : (refHashes?.loaded() ?? (await refHashes?.hasher()));
    return commitWrite(
      this.#deps.transactions,
      async (trx) => {
        // The key is read in the push's own lookup (on PostgreSQL with its lock): a statement fewer.
        const key = command.keptAnswer?.keyInLookup();
        return this.#pushOnce(trx, command, push, hash, key);
      },
      (result) => {
        // Committed: the worker may look for the new event now (a new lead counts as changed).
        if (result.changed && WebhookOutbox.hasRecipients(result.lead)) this.#deps.outbox?.committed();
      },
    );
  }

  /** Loads what a push reads before its write, so that no later push waits before it. */
  async prepare(): Promise<void> {
    await this.#deps.refHashes?.hasher();
  }

  /**
   * A push refused by its schema: the problems found so far, plus the references in it
   * that certainly name nothing, in one 422 (docs/design.md section 3). Writes nothing.
   */
  async refusal(schemaError: ValidationError, body: unknown): Promise<ValidationError> {
    const outside = referencesOutsidePush(body);
    if (outside.length === 0) return schemaError;
    const { riskObjectIds, packageIds } = idsToLookUp(outside);
    const stored = await findStoredClientIds(this.#deps.database.db, riskObjectIds, packageIds);
    const dangling = danglingReferences(outside, stored);
    if (dangling.length === 0) return schemaError;
    const targets = new Set(schemaError.problems.map((problem) => problem.target));
    const problems = [...schemaError.problems, ...dangling.filter((problem) => !targets.has(problem.target))];
    return new ValidationError(problems, schemaError.subject);
  }

  async #pushOnce(
    db: Kysely<Database>,
    command: PushCommand,
    push: LeadPush,
    hash: RefHasher | undefined,
    key: KeyInLookup | undefined,
  ): Promise<PushResult> {
    const { distributionId } = command;
    let questions = erasureQuestions(push, hash);
    let found = await findPushCandidates(
      db,
      distributionId,
      push,
      questions.refs.map((ref) => ref.hash),
      key?.lookup,
      command.tokenCheck?.tokenId,
    );
    // A token revoked since this process last read it ends the write first (401), before a
    // replay could show it anything; then a live key (or one another request holds).
    command.tokenCheck?.settle(found.token);
    if (key !== undefined) key.check(found.key!.free, found.key!.row);
    // A prospect.id of a party merged into another names the survivor (docs/api.md, "Merging
    // two parties"): looked up only when the id names no live party.
    if (push.partyId !== undefined && found.party === undefined) {
      const into = await findMergedParty(db, distributionId, push.partyId);
      if (into !== undefined) {
        push = { ...push, partyId: into.party_id };
        questions = erasureQuestions(push, hash);
        found = await findPushCandidates(
          db,
          distributionId,
          push,
          questions.refs.map((ref) => ref.hash),
        );
      }
    }
    refuseErased(push, questions, found);
    const partyId = matchParty(push, found);
    const stored =
      partyId === undefined ? undefined : await loadLeadForUpdate(db, partyId, found.lockedPartyId === partyId);
    // Erased since the lookup (the erasure held the lock): run again, to meet its tombstone.
    if (partyId !== undefined && stored === undefined) throw new StaleVersionError();
    const now = stampAfter(found.now, stored?.updated_at);
    ({ push, found } = withReplacedIds(push, found));
    checkReferences(push, found, stored);

    const merged = mergePush(stored, distributionId, push, { now, ids: newIds });
    const { changes, landings } = merged;
    const duplicates = duplicateProblems(merged.lead, push, landings);
    if (duplicates.length > 0) throw new ValidationError(duplicates, push.subject);
    const created = stored === undefined;
    // Only a creation is routed: a push that merges into a lead leaves its assignee as is.
    const routing = created ? await this.#deps.routing?.route(db, merged.lead) : undefined;
    const { lead: written, changeLog } = routedLead(merged.lead, routing);
    const changed = changes.head !== undefined;
    const storedMatchKey = stored === undefined ? undefined : partyMatchKey(stored);
    const matchKey = changed ? await this.#matchKey(db, written, storedMatchKey, push) : null;
    // PostgreSQL: the Idempotency-Key's answer is written by the rows' statement (a round trip
    // fewer), unless a round-robin turn taken after that statement changes the lead it shows.
    const answeredEarly =
      command.keptAnswer !== undefined && this.#deps.database.dialect === 'postgres' && !takesTurnAfterWrite(routing)
        ? { created, changed, lead: representLead(written, this.#deps.config) }
        : undefined;
    const answerRow = answeredEarly && command.keptAnswer?.rowOf(answeredEarly);

    const answerWritten = await applyChangeset(db, written, changes, {
      matchKey,
      storedMatchKey,
      changeLog,
      pushLog: {
        id: newRowId(),
        lead_id: written.leadId,
        distribution_id: distributionId,
        received_at: now,
        status: created ? 201 : 200,
        caller: describeCaller(command.caller),
        client_id: command.caller.kind === 'user' ? command.caller.clientId : null,
        origin: command.body.origin ?? null,
        kind: push.kind,
        payload: command.rawBody,
      },
      ...(answerRow && { answer: answerRow.values }),
    });
    answerRow?.written(answerWritten === true);
    // PostgreSQL takes a round-robin turn only now that the lead is written (lead-routing.ts).
    const lead = (await this.#deps.routing?.assignTurn(db, written, routing)) ?? written;
    const response = answeredEarly?.lead ?? representLead(lead, this.#deps.config);
    const outbox = this.#deps.outbox;
    // Only a push that carries or reaches callbacks costs any webhook work.
    if (outbox)
      await outbox.recordPush(db, {
        distributionId,
        callbacks: push.callbacks,
        ...(changed && {
          event: { type: created ? 'lead.created' : 'lead.updated', lead: response, distributionId, at: now },
        }),
      });
    const result = answeredEarly ?? { created, changed, lead: response };
    if (answerRow === undefined) await command.keptAnswer?.keep(db, result);
    return result;
  }

  /**
   * The merged lead's email + birth + address key, once no other party holds it (rule 4).
   * A key matching already looked up (the pushed one, for a new lead) or the party's own
   * stored one needs no second look: a concurrent writer taking it meanwhile is stopped by
   * the unique index `parties_match_key`, and the retry finds its party (rule 10).
   */
  async #matchKey(
    db: Kysely<Database>,
    lead: LeadAggregate,
    /** The stored party's key; undefined for a new lead. */
    storedMatchKey: string | null | undefined,
    push: LeadPush,
  ): Promise<string | null> {
    const matchKey = partyMatchKey(lead);
    const known = storedMatchKey === undefined ? push.matchKey : storedMatchKey;
    if (matchKey === null || matchKey === known) return matchKey;
    matchKeyConflict(lead.partyId, await findMatchKeyOwner(db, lead.distributionId, matchKey), {
      target: 'prospect.email',
      subject: push.subject,
    });
    return matchKey;
  }
}
