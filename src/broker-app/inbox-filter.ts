// The inbox's filters as a broker sets them in the page's query string
// (docs/broker-app.md, "Broker app"): search words, status, assignee (mine or nobody),
// kind, origin, received from and to (days in Brussels time, both included) and the order.
// Read once here for the page and the CSV export alike, and written back into links so
// paging and export keep them.
import { ValidationError } from '../errors.ts';
import { type InboxFilter, LEAD_STATUSES } from '../party/index.ts';
import { TIME_ZONE } from './formatting/locale-formats.ts';

export type Status = (typeof LEAD_STATUSES)[number];

export interface InboxParams {
  readonly search: string;
  readonly status?: Status;
  readonly assignee?: 'mine' | 'none';
  readonly kind?: 'CUSTOMER' | 'COMPANY';
  readonly origin?: string;
  /** YYYY-MM-DD, Brussels days. */
  readonly from?: string;
  readonly to?: string;
  readonly sort: 'changed' | 'received';
  /** `possible`: only leads with possible duplicates (docs/api.md, "Possible duplicates"). */
  readonly duplicates?: 'possible';
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

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
  const parsed = Date.parse(`${value}T00:00:00Z`);
  // A day that exists: 2026-02-30 is no day (Date would roll it over to March).
  if (!DATE.test(value) || Number.isNaN(parsed) || new Date(parsed).toISOString().slice(0, 10) !== value)
    throw new ValidationError([{ target: name, code: 'invalid' }]);
  return value;
}

export function parseInboxParams(query: unknown): InboxParams {
  const status = oneOf(query, 'status', LEAD_STATUSES);
  const assignee = oneOf(query, 'assignee', ['mine', 'none'] as const);
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
    sort: oneOf(query, 'sort', ['changed', 'received'] as const) ?? 'changed',
    ...(duplicates && { duplicates }),
  };
}

/**
 * The filter the inbox reads with (party/inbox/inbox-filter.ts): `mine` is the signed-in
 * user, days are Brussels days.
 */
export function inboxFilter(params: InboxParams, distributionId: string, userId: string): InboxFilter {
  return {
    distributionId,
    search: params.search,
    ...(params.status && { status: params.status }),
    ...(params.assignee && { assignee: params.assignee === 'mine' ? userId : 'none' }),
    ...(params.kind && { kind: params.kind }),
    ...(params.origin !== undefined && { origin: params.origin }),
    ...(params.from && { receivedFrom: startOfDay(params.from) }),
    ...(params.to && { receivedBefore: startOfDay(nextDay(params.to)) }),
    ...(params.duplicates && { possibleDuplicates: true }),
  };
}

/** The filters as query parameters (without paging), for links that keep them. */
export function inboxSearchParams(params: InboxParams, changes: Partial<Record<keyof InboxParams, string>> = {}) {
  const entries: Record<string, string | undefined> = {
    q: params.search || undefined,
    status: params.status,
    assignee: params.assignee,
    kind: params.kind,
    origin: params.origin,
    from: params.from,
    to: params.to,
    sort: params.sort === 'changed' ? undefined : params.sort,
    duplicates: params.duplicates,
  };
  for (const [key, value] of Object.entries(changes)) entries[key === 'search' ? 'q' : key] = value || undefined;
  return new URLSearchParams(Object.entries(entries).filter((entry): entry is [string, string] => !!entry[1]));
}

function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

/** Midnight of a Brussels day, as an ISO instant (stored timestamps are UTC). */
function startOfDay(day: string): string {
  const midnight = Date.parse(`${day}T00:00:00Z`);
  const guess = midnight - zoneOffset(midnight);
  return new Date(midnight - zoneOffset(guess)).toISOString();
}

const zoneParts = new Intl.DateTimeFormat('en-US', {
  timeZone: TIME_ZONE,
  hourCycle: 'h23',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
});

/** How far Brussels time is ahead of UTC at an instant, in ms. */
function zoneOffset(instant: number): number {
  const part = (type: string) => Number(zoneParts.formatToParts(instant).find((p) => p.type === type)!.value);
  return Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second')) - instant;
}
