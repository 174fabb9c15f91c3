// The SQL of where leads come from (docs/design.md section 13, "How far behind the sources
// may be"): `source_counts` holds a row per Brussels day and source (origin or sender), and
// one per week (span 'week', its Monday), of the pushes received before the distribution's
// mark (`lead_projections.sourced_to`); a period reads its whole weeks' rows and its other
// days', at most 12 + 53 per source for a year instead of 366; the
// inbox projector folds the pushes past it after their commits (foldSources), and a read
// sums the rows of its days plus the pushes past the mark, grouped the same way, in one
// statement and so one snapshot (readSourceCounts): a push is in exactly one of the two.
// Status changes of counted leads move their counts by trigger (the migration
// 2026-11-29T04-00_source_counts.ts, which repeats the day and bucket expressions below).
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database, Dialect } from '../../db/database.ts';
import { dialectOf, run, runCount, runText, statement } from '../../db/statements.ts';
import { REACTED, REACTION_BOUNDS } from './reaction-buckets.ts';

type Db = Kysely<Database>;

const STATUSES = ['contacted', 'quoted', 'won', 'lost'] as const;
const COUNTS = ['received', 'created', 'merged', ...STATUSES, ...REACTED] as const;

/** A row of sums: per week (its Monday) and source. Counts come as numbers or numeric text. */
export type SourceCountRow = {
  readonly week: string;
  readonly kind: 'origin' | 'sender';
  /** The origin ('' for none) or the caller. */
  readonly name: string;
} & { readonly [count in (typeof COUNTS)[number]]: number | string };

/** The Monday (YYYY-MM-DD) of the week of a YYYY-MM-DD column. */
function mondayOf(dialect: Dialect, day: string): string {
  return dialect === 'postgres'
    ? `to_char(date_trunc('week', cast(${day} as timestamp)), 'YYYY-MM-DD')`
    : `date(${day}, 'weekday 0', '-6 days')`;
}

/** The Brussels day (YYYY-MM-DD) of an ISO timestamp column. */
function brusselsDay(dialect: Dialect, at: string): string {
  if (dialect === 'postgres') return `to_char(cast(${at} as timestamptz) at time zone 'Europe/Brussels', 'YYYY-MM-DD')`;
  // UTC+2 from the last Sunday of March to the last Sunday of October, both at 01:00 UTC.
  return `case when ${at} >= date(substr(${at}, 1, 4) || '-03-25', 'weekday 0') || 'T01:00:00'
    and ${at} < date(substr(${at}, 1, 4) || '-10-25', 'weekday 0') || 'T01:00:00'
    then date(${at}, '+2 hours') else date(${at}, '+1 hours') end`;
}

/** The bucket number of the hours from `since` to `at`; null when `at` is. */
function reactionBucket(dialect: Dialect, since: string, at: string): string {
  const hours =
    dialect === 'postgres'
      ? `extract(epoch from (cast(${at} as timestamptz) - cast(${since} as timestamptz))) / 3600`
      : `(julianday(${at}) - julianday(${since})) * 24`;
  const cases = REACTION_BOUNDS.map((bound, i) => `when ${hours} < ${bound} then ${i}`).join(' ');
  return `case when ${at} is null then null ${cases} else ${REACTION_BOUNDS.length} end`;
}

/**
 * A push's sender (docs/design.md section 13): the SSO client a signed-in user pushed
 * through (`client:<client_id>`), or else the API token (`token:<id>`); pushes logged before
 * the client was kept name their user (`user:<id>`).
 */
const SENDER = `coalesce('client:' || p.client_id, p.caller)`;

/**
 * The lead a push created, looked up by its id for each push. On PostgreSQL as a LATERAL
 * subquery that cannot be flattened (LIMIT): a generic plan expects a period's share of the
 * pushes where there are the few past the mark, and at 1,000,000 leads chose to hash every
 * lead instead.
 */
function creatingLead(dialect: Dialect): string {
  const lead = 'p.status = 201 and l.id = p.lead_id and l.created_at = p.received_at';
  return dialect === 'postgres'
    ? `left join lateral (select l.status, l.created_at, l.first_status_at from leads l where ${lead} limit 1) as l on true`
    : `left join leads l on ${lead}`;
}

/**
 * The pushes of the distribution ($1) received in [$lo, $hi), by Brussels day and source:
 * counted, and of the leads they created (a creating push is the one received when its lead
 * was created; a lead merged away has none left) the status now and the first change's bucket.
 * Grouped twice: first by every value a sum depends on, so each row's day and bucket are
 * worked out once (a flattened subquery would repeat them in each of the 38 sums), then
 * pivoted into one row per day and source.
 */
function pushSums(dialect: Dialect, lo: string, hi: string): string {
  const kinds =
    dialect === 'postgres'
      ? `(values ('origin'), ('sender')) as k (kind)`
      : `(select 'origin' as kind union all select 'sender') as k`;
  const sum = (condition: string) => `sum(case when ${condition} then n else 0 end)`;
  return `select day, kind, name, sum(n) as received, ${sum('push_status = 201')} as created,
      ${sum('push_status <> 201')} as merged,
      ${STATUSES.map((s) => `${sum(`lead_status = '${s}'`)} as ${s}`).join(', ')},
      ${REACTED.map((column, i) => `${sum(`bucket = ${i}`)} as ${column}`).join(', ')}
    from (
      select ${brusselsDay(dialect, 'p.received_at')} as day, k.kind as kind,
        case when k.kind = 'origin' then coalesce(p.origin, '') else ${SENDER} end as name,
        p.status as push_status, l.status as lead_status,
        ${reactionBucket(dialect, 'l.created_at', 'l.first_status_at')} as bucket, count(*) as n
      from lead_pushes p cross join ${kinds} ${creatingLead(dialect)}
      where p.distribution_id = $1 and p.received_at >= ${lo} and p.received_at < ${hi}
      group by 1, 2, 3, 4, 5, 6
    ) as pushes
    group by day, kind, name`;
}

/** The two rows each sum goes into: its day's and its week's. */
const spans = (dialect: Dialect) =>
  dialect === 'postgres'
    ? `(values ('day'), ('week')) as s (span)`
    : `(select 'day' as span union all select 'week') as s`;

const numbered = (dialect: Dialect, text: string) => (dialect === 'postgres' ? text : text.replaceAll('$', '?'));

/** The fold's statement: the pushes in [$2, $3) into their day's and week's rows. */
const fold = (dialect: Dialect) =>
  numbered(
    dialect,
    `insert into source_counts (distribution_id, span, day, kind, name, ${COUNTS.join(', ')})
      select $1, span, case when span = 'day' then day else ${mondayOf(dialect, 'day')} end, kind, name,
        ${COUNTS.map((c) => `sum(${c})`).join(', ')}
      from (${pushSums(dialect, '$2', '$3')}) as sums cross join ${spans(dialect)}
      where true group by 2, 3, 4, 5
      on conflict (distribution_id, span, day, kind, name) do update set
        ${COUNTS.map((c) => `${c} = source_counts.${c} + excluded.${c}`).join(', ')}`,
  );

// Prepared by name on PostgreSQL (db/statements.ts): planning these long texts took 30 ms,
// more than running them, on every request. SQLite caches its statements by text anyway.
const FOLD = statement('source_counts_fold', { sqlite: fold('sqlite'), postgres: fold('postgres') });

/**
 * Folds the distribution's next pushes received in [from, horizon) into source_counts, at
 * most `limit` of them, and moves the mark to the first stamp not folded (or `horizon`): one
 * bounded step, so the first fold of a long push log (an upgrade) is many short
 * transactions, and pushes and status changes commit between them rather than wait for the
 * whole log. The mark stays a stamp, whose pushes are all on one side of it, so a batch ends
 * between two stamps: it holds fewer than `limit` when pushes share the last one, and more
 * only when more than `limit` share its first (a stamp is one millisecond's pushes). True
 * when pushes before the horizon are left for the next step.
 */
export async function foldSources(
  db: Db,
  dialect: Dialect,
  distributionId: string,
  from: string,
  horizon: string,
  limit: number,
): Promise<boolean> {
  const upTo = await batchEnd(db, dialect, distributionId, from, horizon, limit);
  await run(db, FOLD, [distributionId, from, upTo]);
  await runCount(db, numbered(dialect, 'update lead_projections set sourced_to = $2 where distribution_id = $1'), [
    distributionId,
    upTo,
  ]);
  return upTo < horizon;
}

/**
 * Where a batch of at most `limit` pushes from `from` ends: the stamp of the push after them,
 * read in the order of `lead_pushes_period`, or `horizon` when there are no more. When that
 * push shares the batch's first stamp, the batch takes every push of it, up to the next stamp.
 */
async function batchEnd(
  db: Db,
  dialect: Dialect,
  distributionId: string,
  from: string,
  horizon: string,
  limit: number,
): Promise<string> {
  const stamp = async (after: '>' | '>=', lo: string, skip: number) => {
    const rows = await runText<{ received_at: string }>(
      db,
      numbered(
        dialect,
        `select received_at from lead_pushes where distribution_id = $1 and received_at ${after} $2
          and received_at < $3 order by received_at limit 1 offset ${skip}`,
      ),
      [distributionId, lo, horizon],
    );
    return rows[0]?.received_at ?? horizon;
  };
  const end = await stamp('>=', from, limit);
  if (end === horizon) return horizon;
  const first = await stamp('>=', from, 0);
  return first < end ? end : stamp('>', first, 0);
}

/**
 * The sums per week and source of the Brussels days [fromDay, toDay]: the week rows of the
 * whole weeks [firstWeek, afterWeeks) (Mondays), the day rows of the days before and after
 * them, and the pushes past the mark received in [start, before) (the period's bounds as
 * instants), in one statement.
 */
/** The read's statement: $1 distribution, $2-$3 the days, $4-$5 the whole weeks, $6-$7 the period as instants. */
function read(dialect: Dialect): string {
  const mark = `coalesce((select sourced_to from lead_projections where distribution_id = $1), '')`;
  const past = dialect === 'postgres' ? `greatest($6, ${mark})` : `max($6, ${mark})`;
  const columns = COUNTS.join(', ');
  const days = (range: string) =>
    `select ${mondayOf(dialect, 'day')} as week, kind, name, ${columns} from source_counts
      where distribution_id = $1 and span = 'day' and ${range}`;
  return numbered(
    dialect,
    `select week, kind, name, ${COUNTS.map((c) => `sum(${c}) as ${c}`).join(', ')} from (
      select day as week, kind, name, ${columns} from source_counts
        where distribution_id = $1 and span = 'week' and day >= $4 and day < $5
      union all ${days('day >= $2 and day < $4')}
      union all ${days('day >= $5 and day <= $3')}
      union all select ${mondayOf(dialect, 'day')} as week, kind, name, ${columns} from (${pushSums(dialect, past, '$7')}) as recent
    ) as counts group by week, kind, name`,
  );
}

const READ = statement('source_counts_read', { sqlite: read('sqlite'), postgres: read('postgres') });

export async function readSourceCounts(
  db: Db,
  distributionId: string,
  period: { fromDay: string; toDay: string; firstWeek: string; afterWeeks: string; start: string; before: string },
): Promise<SourceCountRow[]> {
  return run<SourceCountRow>(db, READ, [
    distributionId,
    period.fromDay,
    period.toDay,
    period.firstWeek,
    period.afterWeeks,
    period.start,
    period.before,
  ]);
}

/**
 * Retention is about to remove these pushes (docs/design.md section 13, "How far behind the
 * sources may be"): each lead created by one of them keeps that push's origin and sender on
 * its own row, where the trigger that moves a counted lead's status counts reads them once the
 * push is gone (migration 2026-11-30T01-00_lead_created_source.ts). In the removal's transaction.
 */
export async function keepCreatedSources(db: Db, pushIds: readonly string[]): Promise<void> {
  if (pushIds.length === 0) return;
  await keepCreatedSourcesWhere(
    db,
    sql`exists (select 1 from lead_pushes p
      where p.id in (${sql.join(pushIds)}) and ${CREATED_BY})`,
  );
}

/**
 * A party merge is about to move another lead's pushes onto this one: the lead keeps its own
 * creating push's origin and sender on its row first. A push of the merged lead answered 201
 * at the same millisecond would otherwise be a second creating push of it (the same
 * `received_at`) to the trigger above, which then moved two sources' counts, or the same
 * source's row twice in one statement (PostgreSQL refused the status change: a 500), and to
 * the retention's read above. In the merge's transaction.
 */
export async function keepCreatedSourceOf(db: Db, leadId: string): Promise<void> {
  await keepCreatedSourcesWhere(
    db,
    sql`leads.id = ${leadId} and exists (select 1 from lead_pushes p where ${CREATED_BY})`,
  );
}

/** `p` is the push that created the lead `leads` (it answered 201 at the lead's `created_at`). */
const CREATED_BY = sql`p.lead_id = leads.id and p.received_at = leads.created_at and p.status = 201`;

/**
 * Leads that match `which` and keep no source yet take their creating push's. A lead merged
 * before the merge pinned its survivor can hold two creating pushes (two leads created at one
 * millisecond): it takes the first in the push log, as the migration
 * 2026-11-30T09-00_pin_ambiguous_created_sources.ts pinned those it found.
 */
async function keepCreatedSourcesWhere(db: Db, which: RawBuilder<unknown>): Promise<void> {
  await sql`update leads set (created_origin, created_sender) = (
      select coalesce(p.origin, ''), ${sql.raw(SENDER)} from lead_pushes p where ${CREATED_BY}
        order by p.id limit 1)
    where created_sender is null and ${which}`.execute(db);
}

/**
 * An erasure (docs/design.md section 13, "Where leads come from"): the sums of each origin
 * that only this lead's pushes carried go with it, since an origin is the partner's free text
 * and may name the person; the sums of origins others sent too stay (they name no one). An
 * origin's pushes counted so far are its day rows' `received`; this lead's counted pushes are
 * those before the mark. Run before the lead's pushes are deleted; returns the rows deleted.
 */
export async function eraseOwnOrigins(db: Db, distributionId: string, leadId: string): Promise<number> {
  const postgres = dialectOf(db) === 'postgres';
  const p = postgres ? ['$1', '$2'] : ['?1', '?2'];
  if (postgres) {
    // The mark FOR SHARE, as a status change takes it: a projector folding this person's
    // pushes right now (FOR UPDATE) commits first, and none starts until the erasure has.
    // Read without it, a fold that committed after this delete began left the origin's rows.
    await runCount(db, 'insert into lead_projections (distribution_id) values ($1) on conflict do nothing', [
      distributionId,
    ]);
    await runCount(db, 'select 1 from lead_projections where distribution_id = $1 for share', [distributionId]);
  }
  return runCount(
    db,
    `delete from source_counts where distribution_id = ${p[0]} and kind = 'origin' and name in (
      select own.name from (
        select coalesce(origin, '') as name, count(*) as pushes from lead_pushes
          where lead_id = ${p[1]}
            and received_at < coalesce((select sourced_to from lead_projections where distribution_id = ${p[0]}), '')
          group by coalesce(origin, '')
      ) as own
      where own.pushes = (select sum(c.received) from source_counts c
        where c.distribution_id = ${p[0]} and c.span = 'day' and c.kind = 'origin' and c.name = own.name))`,
    [distributionId, leadId],
  );
}
