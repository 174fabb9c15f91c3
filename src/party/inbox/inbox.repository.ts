// The broker app's lead inbox (docs/design.md sections 7, 13 and 16; docs/broker-app.md,
// "Broker app"): a distribution's leads, filtered by status, assignee, kind, origin, date
// received and follow-up day, searched by word, in the order of any column either way
// (last change, received, follow-up day, name, status, assignee, kind, origin), with what
// the inbox shows of each, and how many the filter finds (up to a cap). A page is cut by a
// keyset cursor in its order, so it holds still while new leads arrive above it, and each
// filter and order is served by an index (leads_status, leads_assignee, leads_received,
// leads_updated, leads_follow_up, leads_origin, leads_assignee_order, the word index; the
// orders by status, name and kind by leads_status_order, leads_sort_name and leads_kind on
// PostgreSQL, by lead_orders' indexes on SQLite, where the inbox projector fills them after
// the pushes' commits), so a page costs the same at any number of leads.
import { type Kysely, type RawBuilder, sql } from 'kysely';
import { ValidationError } from '../../errors.ts';
import type { Database, Dialect } from '../../db/database.ts';
import { runInlined } from '../../db/inlined-literals.ts';
import type { LeadStatus, PartyType } from '../model/party.table.ts';
import { pastPosition, type Position } from '../../db/keyset.ts';
import type { InboxFilter, InboxQuery, InboxSort, SortDirection } from './inbox-filter.ts';
import { ftsMatch, type SearchTerms, searchTermsOf, tsQuery } from './search-words.ts';
import { statusRankOf } from './inbox-filter.ts';

type Db = Kysely<Database>;

export interface InboxRow {
  readonly lead_id: string;
  readonly party_id: string;
  readonly type: PartyType;
  readonly data: string;
  readonly origin: string | null;
  readonly status: LeadStatus;
  readonly lost_reason: string | null;
  readonly assignee_id: string | null;
  readonly follow_up_on: string | null;
  readonly created_at: string;
  readonly updated_at: string;
  /** What the page is ordered by when it is a column's value (pageByValue). */
  readonly sort_value?: string | number | null;
}

/**
 * The orders SQLite reads from `lead_orders` (migration 2026-11-30T08-00): what the inbox
 * projector copies there after the commits, so a page in one of them first brings it up to
 * date (InboxProjection.catchUp), as a search does the word index.
 */
const PROJECTED_ORDERS: ReadonlySet<InboxSort> = new Set(['status', 'name', 'kind']);

/** Whether a page in `sort` reads what the inbox projector keeps (on SQLite), so it must catch up first. */
export function readsProjectedOrder(sort: InboxSort): boolean {
  return PROJECTED_ORDERS.has(sort);
}

/** Lead rows of one inbox page, one more than `limit` to tell if another page follows. */
export async function listInboxRows(db: Db, dialect: Dialect, query: InboxQuery): Promise<InboxRow[]> {
  const viaOrders = dialect === 'sqlite' && readsProjectedOrder(query.sort);
  const filtered = await filteredLeads(db, dialect, query, viaOrders);
  if (filtered === undefined) return [];
  const direction = query.direction ?? 'desc';
  if (query.sort === 'changed' || query.sort === 'received') {
    const column = query.sort === 'received' ? 'leads.created_at' : 'leads.updated_at';
    return pageIn(db, dialect, filtered, sql.ref(column), direction, query.before, query.limit);
  }
  if (query.sort !== 'follow_up') return pageByValue(db, dialect, filtered, query.sort, direction, query, viaOrders);
  // Leads with a day first, in its order (leads_follow_up), then those without, newest
  // received first (leads_received): a cursor in that tail carries NO_DAY before its time.
  const without = (after: Position | undefined, limit: number) =>
    pageIn(
      db,
      dialect,
      filtered.where('leads.follow_up_on', 'is', null),
      sql.ref('leads.created_at'),
      'desc',
      after,
      limit,
    );
  const { before, limit } = query;
  if (before?.at.startsWith(NO_DAY)) return without({ at: before.at.slice(NO_DAY.length), id: before.id }, limit);
  const days = query.noFollowUp
    ? []
    : await pageIn(
        db,
        dialect,
        filtered.where('leads.follow_up_on', 'is not', null),
        sql.ref('leads.follow_up_on'),
        direction,
        before,
        limit,
      );
  if (days.length > limit || query.followUpFrom !== undefined || query.followUpUntil !== undefined) return days;
  return [...days, ...(await without(undefined, limit - days.length))];
}

/** Marks a cursor's position among the leads without a follow-up day (a day never starts so). */
const NO_DAY = '-';

type ValueSort = Exclude<InboxSort, 'changed' | 'received' | 'follow_up'>;

/**
 * What a column shows, as the inbox orders it: the status in its workflow order (new,
 * contacted, quoted, won, lost; leads_status_order), the origin (leads_origin), the name as
 * the column shows it, folded (`leads.sort_name`, kept by every write: leads_sort_name), the
 * kind (COMPANY before CUSTOMER; `leads.kind`, written with the lead: leads_kind) and the
 * assignee (pageByAssignee: by username, case-insensitive). The status rank is written
 * exactly as PostgreSQL's index leads_status_order has it, so its planner uses the index.
 * `viaOrders` (SQLite): status, name and kind as lead_orders has them, in its indexes.
 */
function sortValue(sort: ValueSort, viaOrders: boolean): RawBuilder<string | number | null> {
  if (sort === 'status') return viaOrders ? sql<number>`lead_orders.status_rank` : sql<number>`${sql.raw(STATUS_RANK)}`;
  if (sort === 'origin') return sql<string | null>`leads.origin`;
  if (sort === 'kind') return viaOrders ? sql<string>`lead_orders.kind` : sql<string>`leads.kind`;
  if (sort === 'assignee') return sql<string | null>`leads.assignee_id`;
  return viaOrders ? sql<string | null>`lead_orders.sort_name` : sql<string | null>`leads.sort_name`;
}

/** The status in its workflow order, as the index leads_status_order (migration 2026-11-30T04-00) has it. */
const STATUS_RANK = statusRankOf('leads.status');

/**
 * A page in the order of what a column shows, either way: the leads with a value first, in
 * (value, id) order, then those without one (no origin, unassigned, no name), newest
 * received first, whichever the direction, as the follow-up day's order has them. A cursor
 * carries `v` and the value, or `n` and the time received in that tail.
 */
async function pageByValue(
  db: Db,
  dialect: Dialect,
  filtered: LeadSelect,
  sort: ValueSort,
  direction: SortDirection,
  query: InboxQuery,
  viaOrders: boolean,
): Promise<InboxRow[]> {
  const value = sortValue(sort, viaOrders);
  const keyed = filtered.select(value.as('sort_value'));
  const { before, limit } = query;
  const without = (after: Position | undefined, limit: number) =>
    pageIn(db, dialect, keyed.where(value, 'is', null), sql.ref('leads.created_at'), 'desc', after, limit);
  if (before !== undefined && !/^[vn]/.test(before.at))
    throw new ValidationError([{ target: 'cursor', code: 'invalid', expected: 'cursor' }]);
  if (before?.at.startsWith('n')) return without({ at: before.at.slice(1), id: before.id }, limit);
  let after: Position | undefined;
  if (before !== undefined) {
    const at = before.at.slice(1);
    if (sort === 'status' && !/^[0-4]$/.test(at))
      throw new ValidationError([{ target: 'cursor', code: 'invalid', expected: 'cursor' }]);
    after = { at, id: before.id };
  }
  const valued =
    sort === 'assignee'
      ? await pageByAssignee(db, dialect, keyed, query.distributionId, direction, after, limit)
      : await pageIn(
          db,
          dialect,
          keyed.where(value, 'is not', null),
          value,
          direction,
          after,
          limit,
          sort === 'status' ? Number : String,
          // The index's own id column, so that it serves the order's tie-break too.
          viaOrders ? sql.ref('lead_orders.id') : undefined,
        );
  if (valued.length > limit || sort === 'status') return valued;
  return [...valued, ...(await without(undefined, limit - valued.length))];
}

/**
 * The assigned leads in the order of their assignees' usernames (case-insensitive), each
 * assignee's in id order: the distribution's few users in that order, walked one after the
 * other on leads_assignee_order (distribution, assignee, id) until the page is full, so a
 * page costs some index look-ups at any number of leads. A cursor carries the assignee's id.
 */
async function pageByAssignee(
  db: Db,
  dialect: Dialect,
  keyed: LeadSelect,
  distributionId: string,
  direction: SortDirection,
  after: Position | undefined,
  limit: number,
): Promise<InboxRow[]> {
  const users = await db
    .selectFrom('users')
    .select('id')
    .where('distribution_id', '=', distributionId)
    .orderBy('username_key', direction)
    .execute();
  const start = after === undefined ? 0 : users.findIndex((user) => user.id === after.at);
  if (start < 0) throw new ValidationError([{ target: 'cursor', code: 'invalid', expected: 'cursor' }]);
  const rows: InboxRow[] = [];
  for (let i = start; i < users.length && rows.length <= limit; i++) {
    const assignee = users[i]!.id;
    // Within one assignee the order (assignee, id) is the leads' id order, either way.
    const from = i === start ? after : undefined;
    rows.push(
      ...(await pageIn(
        db,
        dialect,
        assigneesLeads(keyed, dialect, assignee, direction, from),
        sql.ref('leads.assignee_id'),
        direction,
        from,
        limit - rows.length,
      )),
    );
  }
  return rows;
}

/**
 * One assignee's leads, read from leads_assignee_order (distribution, assignee, id) starting at
 * `from`, on each database as its planner reads that index: PostgreSQL with the assignee as a
 * range of one value (with `=` it takes the order (assignee, id) for the id's alone, which the
 * primary key has too, and on some statistics walked the primary key through every
 * distribution's leads to find the assignee's: test/inbox-plans.test.ts), whose row value
 * position (pageIn) bounds the index; SQLite with `=` and the id past the position's, which
 * bound its index (it takes no row value after an equality as a bound).
 */
function assigneesLeads(
  keyed: LeadSelect,
  dialect: Dialect,
  assignee: string,
  direction: SortDirection,
  from: Position | undefined,
): LeadSelect {
  if (dialect === 'postgres')
    return keyed.where('leads.assignee_id', '>=', assignee).where('leads.assignee_id', '<=', assignee);
  const own = keyed.where('leads.assignee_id', '=', assignee);
  return from === undefined ? own : own.where('leads.id', direction === 'desc' ? '<' : '>', from.id);
}

/** Where a page that ends at `row` ends, in the order `sort`: what the next page starts after. */
export function inboxPosition(sort: InboxQuery['sort'], row: InboxRow): Position {
  if (sort === 'received') return { at: row.created_at, id: row.lead_id };
  if (sort === 'changed') return { at: row.updated_at, id: row.lead_id };
  if (sort === 'follow_up') return { at: row.follow_up_on ?? `${NO_DAY}${row.created_at}`, id: row.lead_id };
  const value = row.sort_value;
  return { at: value === null || value === undefined ? `n${row.created_at}` : `v${value}`, id: row.lead_id };
}

/**
 * How many leads the filter finds, counted up to `cap` + 1 and no further (more than `cap`
 * reads as "more than"): the same filters on the same indexes as a page.
 */
export async function countInboxRows(db: Db, dialect: Dialect, filter: InboxFilter, cap: number): Promise<number> {
  const filtered = await filteredLeads(db, dialect, filter);
  if (filtered === undefined) return 0;
  const matches = filtered.clearSelect().select(sql<number>`1`.as('one'));
  const limited = dialect === 'sqlite' ? matches.limit(cap + 1) : matches.limit(sql.lit(cap + 1));
  const counted = db.selectFrom(limited.as('matches')).select((eb) => eb.fn.countAll<number | string>().as('n'));
  const rows =
    dialect === 'sqlite'
      ? await counted.execute()
      : await runInlined<{ n: number | string }, Database>(db, counted.compile());
  return Number(rows[0]?.n ?? 0);
}

type LeadSelect = ReturnType<typeof leadsOf>;

function leadsOf(db: Db) {
  return db
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
      'leads.follow_up_on',
      'leads.created_at',
      'leads.updated_at',
    ]);
}

/** One page in (`column`, id) order from `after` on, one row more than `limit`. */
async function pageIn(
  db: Db,
  dialect: Dialect,
  select: LeadSelect,
  column: RawBuilder<unknown> | ReturnType<typeof sql.ref>,
  direction: SortDirection,
  after: Position | undefined,
  limit: number,
  parse: (at: string) => string | number = String,
  id: ReturnType<typeof sql.ref> = sql.ref('leads.id'),
): Promise<InboxRow[]> {
  let page = select;
  if (after) page = page.where(pastPosition(column, id, direction, { at: parse(after.at), id: after.id }));
  const ordered = page.orderBy(column, direction).orderBy(id, direction);
  if (dialect === 'sqlite') return ordered.limit(limit + 1).execute();
  // Planned for its values (db/inlined-literals.ts): a generic plan cannot know how many
  // leads the distribution holds or how rare a status is.
  return runInlined<InboxRow, Database>(db, ordered.limit(sql.lit(limit + 1)).compile());
}

/**
 * The distribution's leads that pass the filter, unordered; undefined when a search can find
 * none. `viaOrders` (SQLite): joined to their lead_orders rows, from which the page's order
 * is read.
 */
async function filteredLeads(
  db: Db,
  dialect: Dialect,
  query: InboxFilter,
  viaOrders = false,
): Promise<LeadSelect | undefined> {
  const search = query.search?.trim();
  const terms = search ? searchTermsOf(search) : undefined;
  if (search && terms === undefined) return undefined;
  // A word on many leads is met early in the page's own order; a rarer one is cheaper to
  // gather from the word index and sort (what the planner cannot tell before it counts).
  const gathered =
    terms === undefined ? undefined : await gatherUpTo(db, dialect, query.distributionId, terms, FEW_MATCHES);
  const driveFromWords = gathered !== undefined && gathered.count <= FEW_MATCHES;
  // SQLite looks a rare word's matches up by rowid once the distribution's index is out of its
  // reach (unary +); otherwise it would walk that index in the page's order looking for them.
  const distribution =
    dialect === 'sqlite' && driveFromWords ? sql<string>`+leads.distribution_id` : sql.ref('leads.distribution_id');
  let select = leadsOf(db)
    .where(distribution, '=', query.distributionId)
    .$if(viaOrders, (leads) =>
      leads
        .innerJoin('lead_orders', (join) => join.on(sql<boolean>`lead_orders.lead_rowid = leads.rowid`))
        // As the leads' distribution above: out of the planner's reach when the words drive.
        .where(
          driveFromWords ? sql<string>`+lead_orders.distribution_id` : sql.ref('lead_orders.distribution_id'),
          '=',
          query.distributionId,
        ),
    );
  if (query.status !== undefined) select = select.where('leads.status', '=', query.status);
  if (query.assignee === 'none') select = select.where('leads.assignee_id', 'is', null);
  else if (query.assignee !== undefined) select = select.where('leads.assignee_id', '=', query.assignee);
  if (query.kind !== undefined) select = select.where('parties.type', '=', query.kind);
  if (query.origin !== undefined) select = select.where('leads.origin', '=', query.origin);
  if (query.receivedFrom !== undefined) select = select.where('leads.created_at', '>=', query.receivedFrom);
  if (query.receivedBefore !== undefined) select = select.where('leads.created_at', '<', query.receivedBefore);
  if (query.followUpFrom !== undefined) select = select.where('leads.follow_up_on', '>=', query.followUpFrom);
  if (query.followUpUntil !== undefined) select = select.where('leads.follow_up_on', '<=', query.followUpUntil);
  if (query.noFollowUp) select = select.where('leads.follow_up_on', 'is', null);
  if (query.possibleDuplicates) select = select.where(sharesAKey);
  if (terms !== undefined && gathered !== undefined) {
    // PostgreSQL's estimate of a word's leads is a guess, so it would walk the page's order
    // for the few matches of a rare one; given them by id, it looks them up and sorts them.
    if (dialect === 'postgres' && driveFromWords)
      select =
        gathered.ids.length === 0 ? select.where(sql<boolean>`false`) : select.where('leads.id', 'in', gathered.ids);
    else
      select = select.where(
        dialect === 'postgres'
          ? sql<boolean>`to_tsvector('simple', leads.search_words) @@ to_tsquery('simple', ${sql.lit(tsQuery(terms))})`
          : sql<boolean>`leads.rowid in (select rowid from lead_search where lead_search match ${ftsMatch(terms)})`,
      );
  }
  return select;
}

/**
 * The lead's party shares one of its exact keys (not a birth date, which needs a close name
 * too) with another party: each lead of the page's walk is two index look-ups
 * (party_duplicate_keys_party, then the primary key).
 */
const sharesAKey = sql<boolean>`exists (select 1 from party_duplicate_keys own
  join party_duplicate_keys other on other.distribution_id = own.distribution_id and other.kind = own.kind
    and other.key = own.key and other.party_id <> own.party_id
  where own.party_id = leads.party_id and own.kind <> 'birth')`;

/** Fewer matches of a search than this are gathered from the word index, more are met in order. */
const FEW_MATCHES = 1000;

/**
 * The leads the word index gathers for a search, up to `cap` + 1 and no further: their
 * count (on SQLite of every distribution, what FTS5 reads either way), and on PostgreSQL the
 * distribution's ids.
 */
async function gatherUpTo(
  db: Db,
  dialect: Dialect,
  distributionId: string,
  terms: SearchTerms,
  cap: number,
): Promise<{ count: number; ids: string[] }> {
  if (dialect === 'sqlite') {
    const { rows } = await sql<{
      n: number;
    }>`select count(*) as n from (select rowid from lead_search where lead_search match ${ftsMatch(terms)} limit ${cap + 1})`.execute(
      db,
    );
    return { count: Number(rows[0]?.n ?? 0), ids: [] };
  }
  // A limit the planner does not know (a subquery): the GIN index gathers them, never a scan.
  const rows = await runInlined<{ id: string }, Database>(
    db,
    db
      .selectFrom('leads')
      .select('id')
      .where('distribution_id', '=', distributionId)
      .where(sql<boolean>`to_tsvector('simple', search_words) @@ to_tsquery('simple', ${tsQuery(terms)})`)
      .limit(sql<number>`(select ${sql.lit(cap + 1)})`)
      .compile(),
  );
  return { count: rows.length, ids: rows.map((row) => row.id) };
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
