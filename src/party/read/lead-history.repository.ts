// The SQL of a lead's history besides its pushes (docs/design.md section 13): the change
// log of its PATCHes and its notes, as the broker app's timeline reads them. Every read is
// bounded by a lead, and takes the database first.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';

type Db = Kysely<Database>;

/** A lead's change log and notes, oldest first, at most `limit` of each. */
export async function listChanges(db: Db, leadId: string, limit: number) {
  return db
    .selectFrom('lead_changes')
    .select(['id', 'changed_at', 'caller', 'subject', 'changes'])
    .where('lead_id', '=', leadId)
    .orderBy('changed_at')
    .orderBy('id')
    .limit(limit)
    .execute();
}

export async function listNotes(db: Db, leadId: string, limit: number) {
  return db
    .selectFrom('lead_notes')
    .select(['id', 'author_id', 'body', 'created_at'])
    .where('lead_id', '=', leadId)
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .execute();
}
