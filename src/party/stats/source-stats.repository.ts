// The SQL of where leads come from (docs/design.md section 16): a period's pushes counted by
// day, origin, sender and outcome from one index range (lead_pushes_sources covers every
// column it reads), the leads those pushes created by the status they have now, and how long
// each took to first move from `new`. A push logs its lead, day, origin, caller and outcome
// anyway: nothing here is written on a push's way, so no counter becomes a hot row.
import { type Kysely, sql } from 'kysely';
import type { Database, Dialect } from '../../db/database.ts';
import type { LeadStatus } from '../model/party.table.ts';

type Db = Kysely<Database>;

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

/** The pushes received in [from, before) by UTC day, origin, caller and outcome. */
export async function pushCounts(
  db: Db,
  distributionId: string,
  from: string,
  before: string,
): Promise<PushCountRow[]> {
  return db
    .selectFrom('lead_pushes')
    .select([
      sql<string>`substr(received_at, 1, 10)`.as('day'),
      'origin',
      'caller',
      'status',
      (eb) => eb.fn.countAll<number | string>().as('pushes'),
    ])
    .where('distribution_id', '=', distributionId)
    .where('received_at', '>=', from)
    .where('received_at', '<', before)
    .groupBy([sql`substr(received_at, 1, 10)`, 'origin', 'caller', 'status'])
    .execute();
}

/** The leads created by a push in [from, before), by the day, origin and caller of that push and their status now. */
export async function createdLeadCounts(
  db: Db,
  distributionId: string,
  from: string,
  before: string,
): Promise<CreatedLeadRow[]> {
  return db
    .selectFrom('lead_pushes as p')
    .innerJoin('leads as l', 'l.id', 'p.lead_id')
    .select([
      sql<string>`substr(p.received_at, 1, 10)`.as('day'),
      'p.origin',
      'p.caller',
      'l.status',
      (eb) => eb.fn.countAll<number | string>().as('leads'),
    ])
    .where('p.distribution_id', '=', distributionId)
    .where('p.received_at', '>=', from)
    .where('p.received_at', '<', before)
    .where('p.status', '=', 201)
    .groupBy([sql`substr(p.received_at, 1, 10)`, 'p.origin', 'p.caller', 'l.status'])
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
