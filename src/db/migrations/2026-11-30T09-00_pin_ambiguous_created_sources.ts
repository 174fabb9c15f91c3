// A lead merged before the merge pinned its survivor's source (docs/design.md section 13, "How
// far behind the sources may be"), whose two leads were created at the same millisecond, holds
// two pushes that answered 201 at its `created_at`: two creating pushes to the status-count
// trigger of 2026-11-30T01-00_lead_created_source.ts, which then moved both sources' counts
// (or one source's row twice in one statement: PostgreSQL refused the status change), and to
// the merge's and retention's pin, whose one-row subquery PostgreSQL refused.
//
// Such a lead keeps the source of the first of those pushes in the push log (the lowest id),
// as the pin now does wherever it is ambiguous: which of the two created the survivor is not
// recorded anywhere. Leads with one creating push stay unpinned (a push writes nothing more).
// Down leaves the pins: they name a source the lead's push log holds, and the columns stay.
// Frozen in time: Kysely<any>, no app imports.
import { type Kysely, sql } from 'kysely';

const CREATED_BY = 'p.lead_id = leads.id and p.received_at = leads.created_at and p.status = 201';

export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(`update leads set (created_origin, created_sender) = (
      select coalesce(p.origin, ''), coalesce('client:' || p.client_id, p.caller) from lead_pushes p
        where ${CREATED_BY} order by p.id limit 1)
    where created_sender is null and (select count(*) from lead_pushes p where ${CREATED_BY}) > 1`)
    .execute(db);
}

export async function down(_db: Kysely<any>): Promise<void> {}
