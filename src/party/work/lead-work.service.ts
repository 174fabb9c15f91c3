// The broker's work on a lead (docs/design.md sections 13 and 16): a PATCH of its status,
// lost reason, assignee and follow-up day (from the API or the broker app's forms), guarded by If-Match and
// written in one transaction with its change-log row and, when the status moved, the
// lead.status_changed event; and notes. A push never comes here: it leaves all of it as is.
import type { Kysely } from 'kysely';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { newRowId } from '../../db/ids.ts';
import type { TransactionRunner } from '../../db/transaction-runner.ts';
import { commitWrite } from '../../db/write.ts';
import { isDay } from '../../brussels-days.ts';
import { NotFoundError, type Problem, ValidationError } from '../../errors.ts';
import { WebhookOutbox } from '../../webhooks/webhook.outbox.ts';
import { writeClock } from '../store/change-clock.repository.ts';
import { stampAfter } from '../store/lead-stamp.ts';
import { etagOf, requireIfMatch } from '../model/etag.ts';
import type { LeadResponse } from '../model/lead.response.ts';
import { workChanges } from './lead-change.ts';
import { loadLead, loadLeadForUpdateByLead } from '../store/lead-load.repository.ts';
import { type LeadPatch, MAX_LOST_REASON_LENGTH } from './lead-patch.schema.ts';
import { LEAD_STATUSES } from '../model/enumerations.ts';
import { insertNote, isAssignable, updateLeadWork } from './lead-work.repository.ts';
import type { LeadAggregate, LeadWork } from '../model/party.aggregate.ts';
import { representLead } from '../model/representation.ts';
import { missingLead } from '../privacy/erased-or-unknown.ts';
import { findErasedLead } from '../privacy/tombstone.repository.ts';
import type { AnswerInWrite } from '../../idempotency/idempotent-write.ts';

export interface LeadPatchCommand {
  readonly distributionId: string;
  readonly leadId: string;
  readonly patch: LeadPatch;
  readonly ifMatch: string | undefined;
  /** Who: `token:<id>` or `user:<id>` (describeCaller). */
  readonly caller: string;
  /** The Idempotency-Key's answer, kept in the patch's transaction: its first step and its last. */
  readonly keptAnswer?: AnswerInWrite<LeadPatchResult>;
}

export interface LeadPatchResult {
  readonly lead: LeadResponse;
  readonly etag: string;
  readonly changed: boolean;
}

export interface NoteCommand {
  readonly distributionId: string;
  readonly partyId: string;
  readonly authorId: string;
  readonly body: string;
}

export const MAX_NOTE_LENGTH = 10_000;

export class LeadWorkService {
  readonly #config: Config;
  readonly #transactions: TransactionRunner;
  readonly #outbox: WebhookOutbox | undefined;

  constructor(deps: { config: Config; transactions: TransactionRunner; outbox?: WebhookOutbox }) {
    this.#config = deps.config;
    this.#transactions = deps.transactions;
    this.#outbox = deps.outbox;
  }

  async patch(command: LeadPatchCommand): Promise<LeadPatchResult> {
    return commitWrite(
      this.#transactions,
      async (trx) => {
        await command.keptAnswer?.begin(trx);
        const result = await this.#patchOnce(trx, command);
        await command.keptAnswer?.keep(trx, result);
        return result;
      },
      (result) => {
        if (result.reported && WebhookOutbox.hasRecipients(result.lead)) this.#outbox?.committed();
      },
    );
  }

  async #patchOnce(db: Kysely<Database>, command: LeadPatchCommand) {
    const stored = await loadLeadForUpdateByLead(db, command.leadId.toLowerCase());
    if (!stored || stored.distributionId !== command.distributionId)
      throw missingLead(await findErasedLead(db, command.distributionId, command.leadId));
    requireIfMatch(command.ifMatch, stored);
    const work = await nextWork(db, stored, command.patch);
    const changes = workChanges(stored.work, work);
    if (changes.length === 0)
      return { lead: representLead(stored, this.#config), etag: etagOf(stored), changed: false, reported: false };

    const now = stampAfter(await writeClock(db), stored.updated_at);
    const statusChanged = work.status !== stored.work.status;
    const lead: LeadAggregate = {
      ...stored,
      version: stored.version + 1,
      updated_at: now,
      work: { ...work, statusChangedAt: statusChanged ? now : stored.work.statusChangedAt },
    };
    await updateLeadWork(db, lead, {
      id: newRowId(),
      lead_id: lead.leadId,
      party_id: lead.partyId,
      distribution_id: lead.distributionId,
      changed_at: now,
      caller: command.caller,
      subject: 'lead',
      changes: JSON.stringify(changes),
    });
    const response = representLead(lead, this.#config);
    // The partner hears of the status (and the reason a lead was lost), not of who works it.
    const reported = statusChanged || work.lostReason !== stored.work.lostReason;
    if (reported)
      await this.#outbox?.record(db, {
        type: 'lead.status_changed',
        lead: response,
        distributionId: lead.distributionId,
        at: now,
      });
    return { lead: response, etag: etagOf(lead), changed: true, reported };
  }

  /** A broker's note on the lead of `partyId`; 404 for another distribution's. */
  async addNote(command: NoteCommand): Promise<void> {
    const body = command.body.trim();
    const problems: Problem[] = [];
    if (body.length === 0) problems.push({ target: 'body', code: 'missing' });
    if (body.length > MAX_NOTE_LENGTH)
      problems.push({ target: 'body', code: 'max_length', params: { limit: MAX_NOTE_LENGTH } });
    if (problems.length > 0) throw new ValidationError(problems, 'LeadNote');
    await commitWrite(this.#transactions, async (db) => {
      const lead = await loadLead(db, command.partyId);
      if (!lead || lead.distributionId !== command.distributionId) throw new NotFoundError('party_id');
      await insertNote(db, {
        id: newRowId(),
        lead_id: lead.leadId,
        party_id: lead.partyId,
        distribution_id: lead.distributionId,
        author_id: command.authorId,
        body,
        created_at: new Date().toISOString(),
      });
    });
  }
}

/**
 * The work after `patch` (RFC 7396: a member left out keeps its value, null clears it): a
 * lost reason only with status lost, and dropped when the status moves away from it;
 * an assignee only among the distribution's active users. 422 on each field that breaks one.
 */
async function nextWork(db: Kysely<Database>, stored: LeadAggregate, patch: LeadPatch): Promise<LeadWork> {
  const problems: Problem[] = [];
  // The API's schema checks these first; the broker app's forms come here as typed.
  if (patch.status !== undefined && !(LEAD_STATUSES as readonly string[]).includes(patch.status))
    problems.push({ target: 'status', code: 'not_allowed_value', params: { allowed: LEAD_STATUSES.join(', ') } });
  if (typeof patch.lost_reason === 'string' && patch.lost_reason.length > MAX_LOST_REASON_LENGTH)
    problems.push({ target: 'lost_reason', code: 'max_length', params: { limit: MAX_LOST_REASON_LENGTH } });
  const status = patch.status ?? stored.work.status;
  const lostReason =
    patch.lost_reason !== undefined ? patch.lost_reason : status === 'lost' ? stored.work.lostReason : null;
  if (lostReason !== null && status !== 'lost') problems.push({ target: 'lost_reason', code: 'invalid' });
  let assigneeId = stored.work.assigneeId;
  if (patch.assignee !== undefined) {
    assigneeId = patch.assignee === null ? null : patch.assignee.toLowerCase();
    if (assigneeId !== null && assigneeId !== stored.work.assigneeId) {
      if (!(await isAssignable(db, stored.distributionId, assigneeId)))
        problems.push({ target: 'assignee', code: 'unknown_reference' });
    }
  }
  const followUpOn = patch.follow_up_on === undefined ? stored.work.followUpOn : patch.follow_up_on;
  if (followUpOn !== null && followUpOn !== stored.work.followUpOn && !isDay(followUpOn))
    problems.push({ target: 'follow_up_on', code: 'invalid' });
  if (problems.length > 0) throw new ValidationError(problems, 'LeadPatch');
  return { status, lostReason, assigneeId, statusChangedAt: stored.work.statusChangedAt, followUpOn };
}
