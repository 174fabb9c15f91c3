// The SQL of the broker's work on a lead (docs/design.md sections 13 and 16): the lead's
// status, lost reason, assignee and follow-up day written with the aggregate's version and the change-log row,
// the assignee looked up among the distribution's users, and the notes. What the timeline
// reads of them is read/lead-history.repository.ts, the inbox's counts per status
// inbox/status-count.repository.ts.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import { StaleVersionError } from '../../db/errors.ts';
import { dialectOf, runCount, statement } from '../../db/statements.ts';
import type { LeadAggregate } from '../model/party.aggregate.ts';
import type { LeadChangeTable, LeadNoteTable } from '../model/party.table.ts';

type Db = Kysely<Database>;

// PostgreSQL: the version check, the lead row and the change-log row in one round trip;
// the change is logged only when the version check passed.
const workUpdate = statement('lead_work_update', {
  sqlite: 'update parties set version = ?1, updated_at = ?2 where id = ?3 and version = ?4',
  postgres: `with p as (update parties set version = $1, updated_at = $2 where id = $3 and version = $4 returning id),
    l as (update leads set status = $5, lost_reason = $6, assignee_id = $7, status_changed_at = $8, follow_up_on = $14, updated_at = $2,
      first_status_at = coalesce(first_status_at, case when $8 = $2 then $8 end)
      where id = $9 and exists (select 1 from p) returning id)
    insert into lead_changes (id, lead_id, party_id, distribution_id, changed_at, caller, subject, changes)
      select $10, $9, $3, $11, $2, $12, 'lead', $13 from l`,
});
// SQLite: the same as three statements of the one writer's transaction.
const SQLITE_LEAD_WORK =
  'update leads set status = ?1, lost_reason = ?2, assignee_id = ?3, status_changed_at = ?4, follow_up_on = ?5, updated_at = ?6, first_status_at = coalesce(first_status_at, case when ?4 = ?6 then ?4 end) where id = ?7';
const SQLITE_CHANGE =
  'insert into lead_changes (id, lead_id, party_id, distribution_id, changed_at, caller, subject, changes) values (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)';

/**
 * Writes `lead`'s work (its version one up from the stored one) with its change-log row;
 * StaleVersionError when the lead changed since it was loaded.
 */
export async function updateLeadWork(db: Db, lead: LeadAggregate, change: LeadChangeTable): Promise<void> {
  const { work } = lead;
  const versioned = [lead.version, lead.updated_at, lead.partyId, lead.version - 1];
  if (dialectOf(db) === 'postgres') {
    const written = await runCount(db, workUpdate.sql.postgres, [
      ...versioned,
      work.status,
      work.lostReason,
      work.assigneeId,
      work.statusChangedAt,
      lead.leadId,
      change.id,
      lead.distributionId,
      change.caller,
      change.changes,
      work.followUpOn,
    ]);
    if (written !== 1) throw new StaleVersionError(`lead ${lead.leadId} changed concurrently`);
    return;
  }
  if ((await runCount(db, workUpdate.sql.sqlite, versioned)) !== 1)
    throw new StaleVersionError(`lead ${lead.leadId} changed concurrently`);
  await runCount(db, SQLITE_LEAD_WORK, [
    work.status,
    work.lostReason,
    work.assigneeId,
    work.statusChangedAt,
    work.followUpOn,
    lead.updated_at,
    lead.leadId,
  ]);
  const c = change;
  await runCount(db, SQLITE_CHANGE, [
    c.id,
    c.lead_id,
    c.party_id,
    c.distribution_id,
    c.changed_at,
    c.caller,
    c.subject,
    c.changes,
  ]);
}

/** Whether `userId` is an active user of the distribution: who a lead may be assigned to. */
export async function isAssignable(db: Db, distributionId: string, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('id', '=', userId)
    .where('distribution_id', '=', distributionId)
    .where('disabled_at', 'is', null)
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertNote(db: Db, note: LeadNoteTable): Promise<void> {
  await db.insertInto('lead_notes').values(note).execute();
}
