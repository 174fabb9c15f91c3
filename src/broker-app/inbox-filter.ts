// The inbox's filters as a broker sets them in the page's query string
// (docs/broker-app.md, "Broker app"): search words, status, assignee (mine, nobody or any
// colleague), kind, origin, received from and to (days in Brussels time, both included),
// follow-up (overdue, today, this week, none), the order and its direction. Read once here
// for the page and the CSV export alike, and written back into links so paging and export
// keep them.
import { addDays, brusselsMidnight, isDay, mondayOf } from '../brussels-days.ts';
import { ValidationError } from '../errors.ts';
import { type InboxFilter, LEAD_STATUSES } from '../party/index.ts';

export type Status = (typeof LEAD_STATUSES)[number];

export type FollowUpFilter = (typeof FOLLOW_UPS)[number];
export const FOLLOW_UPS = ['overdue', 'today', 'week', 'none'] as const;
export type SortColumn = (typeof SORTS)[number];
export const SORTS = ['changed', 'received', 'follow_up', 'name', 'status', 'assignee', 'kind', 'origin'] as const;
export type Direction = 'asc' | 'desc';

export interface InboxParams {
  readonly search: string;
  readonly status?: Status;
  /** `mine`, `none`, or a colleague's user id. */
  readonly assignee?: string;
  readonly kind?: 'CUSTOMER' | 'COMPANY';
  readonly origin?: string;
  /** YYYY-MM-DD, Brussels days. */
  readonly from?: string;
  readonly to?: string;
  readonly followUp?: FollowUpFilter;
  readonly sort: SortColumn;
  readonly direction: Direction;
  /** `possible`: only leads with possible duplicates (docs/api.md, "Possible duplicates"). */
  readonly duplicates?: 'possible';
}

/**
 * The direction an order starts in: the newest change or receipt first; the earliest
 * follow-up, A to Z and the status in its workflow order (new first) for the others.
 */
export const defaultDirection = (sort: SortColumn): Direction =>
  sort === 'changed' || sort === 'received' ? 'desc' : 'asc';

const USER_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A query parameter given once, as text within `maxLength`; 422 on its name otherwise. */
export function queryText(query: unknown, name: string, maxLength: number): string | undefined {
  const value = (query as Record<string, unknown>)[name];
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string' || value.length > maxLength)
    throw new ValidationError([{ target: name, code: 'invalid' }]);
  return value;
}

function oneOf<T extends string>(query: unknown, name: string, allowed: readonly T[]): T | undefined {
  const value = queryText(query, name, 20);
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) throw new ValidationError([{ target: name, code: 'invalid' }]);
  return value as T;
}

function date(query: unknown, name: string): string | undefined {
  const value = queryText(query, name, 10);
  if (value === undefined) return undefined;
  if (!isDay(value)) throw new ValidationError([{ target: name, code: 'invalid' }]);
  return value;
}

export function parseInboxParams(query: unknown): InboxParams {
  const status = oneOf(query, 'status', LEAD_STATUSES);
  const assignee = queryText(query, 'assignee', 36)?.toLowerCase();
  if (assignee !== undefined && assignee !== 'mine' && assignee !== 'none' && !USER_ID.test(assignee))
    throw new ValidationError([{ target: 'assignee', code: 'invalid' }]);
  const followUp = oneOf(query, 'follow_up', FOLLOW_UPS);
  const sort = oneOf(query, 'sort', SORTS) ?? 'changed';
  const kind = oneOf(query, 'kind', ['CUSTOMER', 'COMPANY'] as const);
  const origin = queryText(query, 'origin', 200);
  const from = date(query, 'from');
  const to = date(query, 'to');
  const duplicates = oneOf(query, 'duplicates', ['possible'] as const);
  return {
    search: queryText(query, 'q', 200)?.trim() ?? '',
    ...(status && { status }),
    ...(assignee && { assignee }),
    ...(kind && { kind }),
    ...(origin !== undefined && { origin }),
    ...(from && { from }),
    ...(to && { to }),
    ...(followUp && { followUp }),
    sort,
    direction: oneOf(query, 'dir', ['asc', 'desc'] as const) ?? defaultDirection(sort),
    ...(duplicates && { duplicates }),
  };
}

/**
 * The filter the inbox reads with (party/inbox/inbox-filter.ts): `mine` is the signed-in
 * user, days are Brussels days, `today` the Brussels day it is (follow-up: overdue is before
 * it, this week Monday to Sunday around it).
 */
export function inboxFilter(params: InboxParams, distributionId: string, userId: string, today: string): InboxFilter {
  return {
    distributionId,
    search: params.search,
    ...(params.status && { status: params.status }),
    ...(params.assignee && { assignee: params.assignee === 'mine' ? userId : params.assignee }),
    ...(params.kind && { kind: params.kind }),
    ...(params.origin !== undefined && { origin: params.origin }),
    ...(params.from && { receivedFrom: brusselsMidnight(params.from) }),
    ...(params.to && { receivedBefore: brusselsMidnight(addDays(params.to, 1)) }),
    ...followUpRange(params.followUp, today),
    ...(params.duplicates && { possibleDuplicates: true }),
  };
}

function followUpRange(filter: FollowUpFilter | undefined, today: string) {
  if (filter === 'overdue') return { followUpUntil: addDays(today, -1) };
  if (filter === 'today') return { followUpFrom: today, followUpUntil: today };
  if (filter === 'none') return { noFollowUp: true };
  if (filter === 'week') {
    // Monday is the first day of the week where the app is used (ISO 8601).
    const monday = mondayOf(today);
    return { followUpFrom: monday, followUpUntil: addDays(monday, 6) };
  }
  return {};
}

/** The filters as query parameters (without paging), for links that keep them. */
export function inboxSearchParams(params: InboxParams, changes: Readonly<Record<string, string>> = {}) {
  const entries: Record<string, string | undefined> = {
    q: params.search || undefined,
    status: params.status,
    assignee: params.assignee,
    kind: params.kind,
    origin: params.origin,
    from: params.from,
    to: params.to,
    follow_up: params.followUp,
    sort: params.sort === 'changed' ? undefined : params.sort,
    dir: params.direction === defaultDirection(params.sort) ? undefined : params.direction,
    duplicates: params.duplicates,
  };
  for (const [key, value] of Object.entries(changes)) entries[key === 'search' ? 'q' : key] = value || undefined;
  return new URLSearchParams(Object.entries(entries).filter((entry): entry is [string, string] => !!entry[1]));
}
