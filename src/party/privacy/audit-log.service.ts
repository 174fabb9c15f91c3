// The audit log of erasures and exports (docs/design.md section 15): who, when, which
// party id; nothing about the person. Read by `lead-intake audit list`.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import { listAudit } from './audit-log.repository.ts';

export interface AuditEntry {
  readonly id: string;
  readonly at: string;
  readonly action: 'erase' | 'export';
  readonly distribution_id: string;
  readonly party_id: string;
  /** `token:<id>`, `user:<id>`, `cli` or `retention`. */
  readonly actor: string;
}

/** The newest entries first. */
export async function listAuditLog(
  db: Kysely<Database>,
  filter: { distributionId?: string; limit: number },
): Promise<AuditEntry[]> {
  return (await listAudit(db, filter)).map((row) => ({
    id: row.id,
    at: row.at,
    action: row.action,
    distribution_id: row.distribution_id,
    party_id: row.party_id,
    actor: row.actor,
  }));
}
