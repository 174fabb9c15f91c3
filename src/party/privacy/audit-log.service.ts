// The audit log of erasures and exports (docs/design.md section 15): who, when, which
// party id; nothing about the person. Read by `lead-intake audit list`.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import { listAudit, usernamesOf } from './audit-log.repository.ts';

export interface AuditEntry {
  readonly id: string;
  readonly at: string;
  readonly action: 'erase' | 'export';
  readonly distribution_id: string;
  readonly party_id: string;
  /** `token:<id>`, `user:<id>`, `cli` or `retention`. */
  readonly actor: string;
  /** The username of a `user:<id>` actor, so an operator reads who it was; null for the others (and a user since deleted). */
  readonly username: string | null;
}

const USER_ACTOR = 'user:';

/** The newest entries first. */
export async function listAuditLog(
  db: Kysely<Database>,
  filter: { distributionId?: string; limit: number },
): Promise<AuditEntry[]> {
  const rows = await listAudit(db, filter);
  const userIds = new Set(
    rows.filter((row) => row.actor.startsWith(USER_ACTOR)).map((row) => row.actor.slice(USER_ACTOR.length)),
  );
  const usernames = new Map((await usernamesOf(db, [...userIds])).map((user) => [user.id, user.username]));
  return rows.map((row) => ({
    id: row.id,
    at: row.at,
    action: row.action,
    distribution_id: row.distribution_id,
    party_id: row.party_id,
    actor: row.actor,
    username: row.actor.startsWith(USER_ACTOR) ? (usernames.get(row.actor.slice(USER_ACTOR.length)) ?? null) : null,
  }));
}
