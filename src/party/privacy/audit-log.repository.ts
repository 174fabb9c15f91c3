// The SQL of the audit log (docs/design.md section 15): one row per erasure or export, who
// and when and which party id, nothing about the person. Every function takes the
// transaction (or the database) first.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { AuditAction } from './personal-data.table.ts';

type Db = Kysely<Database>;

export async function insertAudit(
  db: Db,
  entry: { id: string; at: string; action: AuditAction; distributionId: string; partyId: string; actor: string },
): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      id: entry.id,
      at: entry.at,
      action: entry.action,
      distribution_id: entry.distributionId,
      party_id: entry.partyId,
      actor: entry.actor,
    })
    .execute();
}

/** The entries about one party, oldest first: its export shows them (docs/design.md section 14). */
export async function listAuditOfParty(db: Db, distributionId: string, partyId: string) {
  return db
    .selectFrom('audit_log')
    .select(['id', 'at', 'action', 'actor'])
    .where('distribution_id', '=', distributionId)
    .where('party_id', '=', partyId)
    .orderBy('at')
    .orderBy('id')
    .execute();
}

export async function listAudit(db: Db, filter: { distributionId?: string; limit: number }) {
  let select = db.selectFrom('audit_log').selectAll();
  if (filter.distributionId) select = select.where('distribution_id', '=', filter.distributionId);
  return select.orderBy('at', 'desc').orderBy('id', 'desc').limit(filter.limit).execute();
}

/** The usernames of the users among an audit page's actors (`user:<id>`), by id. */
export async function usernamesOf(db: Db, userIds: readonly string[]) {
  if (userIds.length === 0) return [];
  return db
    .selectFrom('users')
    .select(['id', 'username'])
    .where('id', 'in', [...userIds])
    .execute();
}
