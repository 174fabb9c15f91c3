// The SQL of the inbox's counts per status (docs/design.md section 13): kept by triggers in
// `lead_status_counts` (in shards on PostgreSQL, so concurrent pushes into one distribution
// do not queue on one row) and summed here, so a count costs the same at any number of leads.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { LeadStatus } from '../model/party.table.ts';

type Db = Kysely<Database>;

/** Leads per status in the distribution: the triggers' counts, summed over their shards. */
export async function countByStatus(db: Db, distributionId: string): Promise<Map<LeadStatus, number>> {
  const rows = await db
    .selectFrom('lead_status_counts')
    .select(['status', (eb) => eb.fn.sum<number | string>('leads').as('leads')])
    .where('distribution_id', '=', distributionId)
    .groupBy('status')
    .execute();
  return new Map(rows.map((row) => [row.status, Number(row.leads)]));
}
