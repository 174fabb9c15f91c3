// Reads of the push log (docs/design.md section 2, rule 11): a lead's accepted pushes, each
// with its body exactly as received. The push log is written with the push's changeset
// (changeset.repository.ts); the lead is found in the caller's distribution first.
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import { pastPosition, type Position } from '../../db/keyset.ts';

type Db = Kysely<Database>;

/** A lead's pushes in (received_at, id) order, one more than `limit` to tell if a page follows. */
export async function listPushRows(db: Db, leadId: string, after: Position | undefined, limit: number) {
  let select = db
    .selectFrom('lead_pushes')
    .select(['id', 'received_at', 'status', 'caller', 'origin', 'kind', 'payload'])
    .where('lead_id', '=', leadId);
  if (after) select = select.where(pastPosition(sql.ref('received_at'), sql.ref('id'), 'asc', after));
  return select
    .orderBy('received_at')
    .orderBy('id')
    .limit(limit + 1)
    .execute();
}

/** One push of a lead, its body exactly as received (the broker app shows it on demand). */
export async function findPushRow(db: Db, leadId: string, pushId: string) {
  return db
    .selectFrom('lead_pushes')
    .select(['id', 'received_at', 'status', 'caller', 'origin', 'kind', 'payload'])
    .where('lead_id', '=', leadId)
    .where('id', '=', pushId)
    .executeTakeFirst();
}

/** The newest push of a lead (the broker app shows its sender fields together). */
export async function findLatestPushRow(db: Db, leadId: string) {
  return db
    .selectFrom('lead_pushes')
    .select(['id', 'received_at', 'status', 'caller', 'origin', 'kind', 'payload'])
    .where('lead_id', '=', leadId)
    .orderBy('received_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}
