// The SQL of where leads come from (docs/design.md section 16): a period's pushes counted by
// week, origin, sender and outcome from one index range (lead_pushes_sources covers every
// column it reads), the leads those pushes created by the status they have now, and how long
// each took to first move from `new`. A push logs its lead, day, origin, caller and outcome
// anyway: nothing here is written on a push's way, so no counter becomes a hot row.
import { type Kysely, sql } from 'kysely';
import type { Database, Dialect } from '../../db/database.ts';
import type { LeadStatus } from '../model/party.table.ts';

type Db = Kysely<Database>;

/**
 * The Monday (UTC) of a push's week, as YYYY-MM-DD: rows come grouped by week rather than by
 * day, a seventh as many for the same sums.
 */
function weekOf(dialect: Dialect, column: string) {
  return dialect === 'postgres'
    ? sql<string>`to_char(date_trunc('week', cast(${sql.ref(column)} as timestamptz) at time zone 'UTC'), 'YYYY-MM-DD')`
    : sql<string>`date(${sql.ref(column)}, 'weekday 0', '-6 days')`;
}

export interface PushCountRow {
  readonly day: string;
  readonly origin: string | null;
  readonly caller: string;
  /** 201 created, 200 merged into a lead that was there. */
  readonly status: number | string;
  readonly pushes: number | string;
}

export interface CreatedLeadRow {
  readonly day: string;
  readonly origin: string | null;
  readonly caller: string;
  readonly status: LeadStatus;
  readonly leads: number | string;
}

export interface ReactionRow {
  readonly origin: string | null;
  readonly caller: string;
  readonly hours: number | string;
}

/** The pushes received in [from, before) by week (its Monday, UTC), origin, caller and outcome. */
export async function pushCounts(
  db: Db,
  dialect: Dialect,
  distributionId: string,
  from: string,
  before: string,
): Promise<PushCountRow[]> {
  const week = weekOf(dialect, 'received_at');
  return db
    .selectFrom('lead_pushes')
    .select([week.as('day'), 'origin', 'caller', 'status', (eb) => eb.fn.countAll<number | string>().as('pushes')])
    .where('distribution_id', '=', distributionId)
    .where('received_at', '>=', from)
    .where('received_at', '<', before)
    .groupBy([week, 'origin', 'caller', 'status'])
    .execute();
}

/** The leads created by a push in [from, before), by the week, origin and caller of that push and their status now. */
export async function createdLeadCounts(
  db: Db,
  dialect: Dialect,
  distributionId: string,
  from: string,
  before: string,
): Promise<CreatedLeadRow[]> {
  const week = weekOf(dialect, 'p.received_at');
  return db
    .selectFrom('lead_pushes as p')
    .innerJoin('leads as l', 'l.id', 'p.lead_id')
    .select([week.as('day'), 'p.origin', 'p.caller', 'l.status', (eb) => eb.fn.countAll<number | string>().as('leads')])
    .where('p.distribution_id', '=', distributionId)
    .where('p.received_at', '>=', from)
    .where('p.received_at', '<', before)
    .where('p.status', '=', 201)
    .groupBy([week, 'p.origin', 'p.caller', 'l.status'])
    .execute();
}

/** Hours from creation to the first status change, per lead created in [from, before) whose status has moved. */
export async function reactionHours(
  db: Db,
  dialect: Dialect,
  distributionId: string,
  from: string,
  before: string,
): Promise<ReactionRow[]> {
  const hours =
    dialect === 'postgres'
      ? sql<number>`extract(epoch from (cast(l.first_status_at as timestamptz) - cast(l.created_at as timestamptz))) / 3600`
      : sql<number>`(julianday(l.first_status_at) - julianday(l.created_at)) * 24`;
  return db
    .selectFrom('lead_pushes as p')
    .innerJoin('leads as l', 'l.id', 'p.lead_id')
    .select(['p.origin', 'p.caller', hours.as('hours')])
    .where('p.distribution_id', '=', distributionId)
    .where('p.received_at', '>=', from)
    .where('p.received_at', '<', before)
    .where('p.status', '=', 201)
    .where('l.first_status_at', 'is not', null)
    .execute();
}
