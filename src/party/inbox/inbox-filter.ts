// What the broker app's inbox asks for (docs/design.md sections 13 and 16; docs/broker-app.md,
// "Broker app"): a distribution's leads filtered by status, assignee, kind, origin, the time
// received and the follow-up day, searched by word, in the order of any column either way, a page
// at a time. The broker app reads these from the page's query string
// (broker-app/inbox-filter.ts); inbox.repository.ts turns them into SQL.
import type { Position } from '../../db/keyset.ts';
import type { LeadStatus, PartyType } from '../model/party.table.ts';

/**
 * Last change, received, follow-up day, or what a column shows: name, status (in its
 * workflow order), assignee, kind, origin. Leads without a follow-up day, an assignee, an
 * origin or a name come after those with one, either way.
 */
export type InboxSort = 'changed' | 'received' | 'follow_up' | 'name' | 'status' | 'assignee' | 'kind' | 'origin';
export type SortDirection = 'asc' | 'desc';

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
  /** A follow-up day on or after this one (YYYY-MM-DD). */
  readonly followUpFrom?: string;
  /** A follow-up day on or before this one (YYYY-MM-DD). */
  readonly followUpUntil?: string;
  /** Only the leads without a follow-up day. */
  readonly noFollowUp?: boolean;
  /**
   * Only leads whose party shares an e-mail, telephone, VIN or enterprise number with another
   * party of the distribution (docs/api.md, "Possible duplicates"; a birth date with a close
   * name is compared per party, so the lead page lists those and the filter does not).
   */
  readonly possibleDuplicates?: boolean;
}

export interface InboxQuery extends InboxFilter {
  readonly sort: InboxSort;
  /** Newest (or latest day) first unless `asc`. */
  readonly direction?: SortDirection;
  /** Start after this position in the sort's (value, id) order. */
  readonly before?: Position;
  readonly limit: number;
}

/**
 * The status in its workflow order (new 0, contacted 1, quoted 2, won 3, lost 4), as SQL over
 * `column`: PostgreSQL's index leads_status_order holds this expression written exactly so,
 * SQLite's projector (inbox-projection.repository.ts) stores its value in lead_orders.
 */
export const statusRankOf = (column: string): string =>
  `(case ${column} when 'new' then 0 when 'contacted' then 1 when 'quoted' then 2 when 'won' then 3 when 'lost' then 4 end)`;
