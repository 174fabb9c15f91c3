// The broker app's lead inbox (docs/design.md sections 7 and 13; README, "Broker app"): a
// distribution's leads, filtered by status, assignee, kind, origin and date received,
// searched by word, newest change (or newest received) first, with what the inbox shows of
// each. A page is cut by a keyset cursor in its order, so it holds still while new leads
// arrive above it, and each filter is served by an index (leads_status, leads_assignee,
// leads_received, the word index), so a page costs the same at any number of leads.
import { type Kysely, sql } from 'kysely';
import type { Database, Dialect } from '../db/database.ts';
import type { Position } from '../http/pagination.ts';
import type { LeadStatus, PartyType } from './party.table.ts';
import { ftsMatch, searchTermsOf, tsQuery } from './search-words.ts';

type Db = Kysely<Database>;

export type InboxSort = 'changed' | 'received';

export interface InboxFilter {
  readonly distributionId: string;
  /** Free text: words of a name, e-mail, address, ref or VIN, a telephone or enterprise number. */
  readonly search?: string;
  readonly status?: LeadStatus;
  /** A user's id, or `none` for the leads assigned to nobody. */
  readonly assignee?: string;
  readonly kind?: PartyType;
  readonly origin?: string;
  /** Received at or after this instant (ISO). */
  readonly receivedFrom?: string;
  /** Received before this instant (ISO). */
  readonly receivedBefore?: string;
}

export interface InboxQuery extends InboxFilter {
  readonly sort: InboxSort;
  /** Start after this position in the sort's (time, id) descending order. */
  readonly before?: Position;
  readonly limit: number;
}

export interface InboxRow {
  readonly lead_id: string;
  readonly party_id: string;
  readonly type: PartyType;
  readonly data: string;
  readonly origin: string | null;
  readonly status: LeadStatus;
  readonly lost_reason: string | null;
  readonly assignee_id: string | null;
  readonly created_at: string;
  readonly updated_at: string;
}

/** Lead rows of one inbox page, one more than `limit` to tell if another page follows. */
export async function listInboxRows(db: Db, dialect: Dialect, query: InboxQuery): Promise<InboxRow[]> {
  const column = query.sort === 'received' ? 'leads.created_at' : 'leads.updated_at';
  let select = db
    .selectFrom('leads')
    .innerJoin('parties', 'parties.id', 'leads.party_id')
    .select([
      'leads.id as lead_id',
      'leads.party_id',
      'parties.type',
      'parties.data',
      'leads.origin',
      'leads.status',
      'leads.lost_reason',
      'leads.assignee_id',
      'leads.created_at',
      'leads.updated_at',
    ])
    .where('leads.distribution_id', '=', query.distributionId);
  if (query.status !== undefined) select = select.where('leads.status', '=', query.status);
  if (query.assignee === 'none') select = select.where('leads.assignee_id', 'is', null);
  else if (query.assignee !== undefined) select = select.where('leads.assignee_id', '=', query.assignee);
  if (query.kind !== undefined) select = select.where('parties.type', '=', query.kind);
  if (query.origin !== undefined) select = select.where('leads.origin', '=', query.origin);
  if (query.receivedFrom !== undefined) select = select.where('leads.created_at', '>=', query.receivedFrom);
  if (query.receivedBefore !== undefined) select = select.where('leads.created_at', '<', query.receivedBefore);
  const search = query.search?.trim();
  if (search) {
    const terms = searchTermsOf(search);
    if (terms === undefined) return [];
    // The word index gathers the matching leads; the other conditions check them. The
    // PostgreSQL query goes as a literal (letters and digits only): planned for its words,
    // not as the generic plan a parameter would get (database.ts).
    select =
      dialect === 'postgres'
        ? select.where(
            sql<boolean>`to_tsvector('simple', leads.search_words) @@ to_tsquery('simple', ${sql.lit(tsQuery(terms))})`,
          )
        : select.where(
            sql<boolean>`leads.rowid in (select rowid from lead_search where lead_search match ${ftsMatch(terms)})`,
          );
  }
  if (query.before) {
    const { at, id } = query.before;
    select = select.where((eb) => eb.or([eb(column, '<', at), eb.and([eb(column, '=', at), eb('leads.id', '<', id)])]));
  }
  return select
    .orderBy(column, 'desc')
    .orderBy('leads.id', 'desc')
    .limit(query.limit + 1)
    .execute();
}

/** The parties' external refs and the leads' push counts by outcome (201 created, 200 merged), for one page. */
export async function inboxDetails(db: Db, rows: readonly InboxRow[]) {
  if (rows.length === 0) return { refs: [], pushCounts: [] };
  const [refs, pushCounts] = await Promise.all([
    db
      .selectFrom('external_refs')
      .select(['entity_id', 'company', 'ref'])
      .where('entity_type', '=', 'party')
      .where(
        'entity_id',
        'in',
        rows.map((row) => row.party_id),
      )
      .orderBy('created_at')
      .orderBy('company')
      .orderBy('ref')
      .execute(),
    db
      .selectFrom('lead_pushes')
      .select(['lead_id', 'status', (eb) => eb.fn.countAll<number>().as('pushes')])
      .where(
        'lead_id',
        'in',
        rows.map((row) => row.lead_id),
      )
      .groupBy(['lead_id', 'status'])
      .execute(),
  ]);
  return {
    refs,
    pushCounts: pushCounts.map((count) => ({ ...count, status: Number(count.status), pushes: Number(count.pushes) })),
  };
}
