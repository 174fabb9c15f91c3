// The SQL of the inbox's counts per status (docs/design.md section 13): the leads counted
// in `lead_status_counts` (created before the distribution's `counted_to`, brought there by
// the inbox projector after their push) plus the leads created since, counted from the
// `leads_received` index, in one statement and so one snapshot: a lead is in exactly one of
// the two. A push writes no row of it, so concurrent pushes share none (no hot row).
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import { dialectOf, runText } from '../../db/statements.ts';
import type { LeadStatus } from '../model/party.table.ts';
import { LAST_STAMP } from './inbox-projection.repository.ts';

type Db = Kysely<Database>;

/** Leads per status in the distribution, however many there are. */
export async function countByStatus(db: Db, distributionId: string): Promise<Map<LeadStatus, number>> {
  const d = dialectOf(db) === 'postgres' ? '$1' : '?1';
  const rows = await runText<{ status: LeadStatus; leads: number | string }>(
    db,
    `select status, sum(leads) as leads from (
      select status, leads from lead_status_counts where distribution_id = ${d}
      union all
      select status, count(*) as leads from leads
        where distribution_id = ${d}
          and created_at >= coalesce((select counted_to from lead_projections where distribution_id = ${d}), '')
          and created_at <= ${LAST_STAMP}
        group by status
    ) as counts group by status`,
    [distributionId],
  );
  return new Map(rows.map((row) => [row.status, Number(row.leads)]));
}
