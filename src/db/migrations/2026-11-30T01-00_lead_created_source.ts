// Where leads come from outlives the push log (docs/design.md section 13, "How far behind the
// sources may be"): a status change of a counted lead moves the counts of its source, which
// the trigger of 2026-11-29T04-00_source_counts.ts read from the lead's creating push. Once
// the push log's retention had removed that push, the lead's later changes moved nothing.
//
// - `leads.created_origin`, `leads.created_sender`: the origin ('' for none) and the sender
//   (`client:<id>`, else the caller) of the push that created the lead, written by retention
//   when it removes that push (null while the push is there: a push writes nothing more).
// - The trigger reads the source from the lead's columns when they are set, else from the
//   creating push. Its sender is the one the projector folds under, `client:<id>` for a
//   signed-in user's push through an SSO client (2026-11-29T06-00_push_client.ts): the first
//   trigger named the user there, and so moved the counts of a sender that had none.
// Leads whose creating push retention removed before this migration stay as they were counted.
// Frozen in time: Kysely<any>, no app imports.
import { type Kysely, PostgresAdapter, sql } from 'kysely';

const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

/** Upper bounds (hours, exclusive) of the reaction buckets; the last bucket has none. */
const REACTION_BOUNDS = [
  5 / 60,
  10 / 60,
  15 / 60,
  20 / 60,
  0.5,
  0.75,
  1,
  1.5,
  2,
  3,
  4,
  6,
  8,
  10,
  12,
  16,
  20,
  24,
  30,
  36,
  48,
  60,
  72,
  96,
  120,
  168,
  240,
  336,
  504,
  720,
];
const REACTED = REACTION_BOUNDS.map((_, i) => `reacted_${String(i).padStart(2, '0')}`).concat(
  `reacted_${String(REACTION_BOUNDS.length).padStart(2, '0')}`,
);
const STATUSES = ['contacted', 'quoted', 'won', 'lost'];
const COUNTS = ['received', 'created', 'merged', ...STATUSES, ...REACTED];

/** The lead's source as rows (origin, sender): kept on the lead, or its creating push's. */
const KEPT_SOURCE = `select coalesce(p.origin, '') as origin, coalesce('client:' || p.client_id, p.caller) as sender
    from lead_pushes p
    where new.created_sender is null and p.lead_id = new.id and p.received_at = new.created_at and p.status = 201
  union all select new.created_origin, new.created_sender where new.created_sender is not null`;

/** The first trigger's source (for down): the creating push only, its sender the caller. */
const PUSH_SOURCE = `select coalesce(p.origin, '') as origin, p.caller as sender
    from lead_pushes p where p.lead_id = new.id and p.received_at = new.created_at and p.status = 201`;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('leads').addColumn('created_origin', 'text').execute();
  await db.schema.alterTable('leads').addColumn('created_sender', 'text').execute();
  if (isPostgres(db)) await postgresTrigger(db, KEPT_SOURCE);
  else await sqliteTrigger(db, KEPT_SOURCE);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) await postgresTrigger(db, PUSH_SOURCE);
  else await sqliteTrigger(db, PUSH_SOURCE);
  await db.schema.alterTable('leads').dropColumn('created_sender').execute();
  await db.schema.alterTable('leads').dropColumn('created_origin').execute();
}

/** `at`'s hours after `since` into its bucket number. */
function bucket(hours: string): string {
  return `case ${REACTION_BOUNDS.map((bound, i) => `when ${hours} < ${bound} then ${i}`).join(' ')} else ${REACTION_BOUNDS.length} end`;
}

/** The deltas a status change makes, in COUNTS order; `reacted` is the bucket number or null. */
function deltas(reacted: string): string[] {
  return [
    '0',
    '0',
    '0',
    ...STATUSES.map(
      (s) => `(case when new.status = '${s}' then 1 else 0 end) - (case when old.status = '${s}' then 1 else 0 end)`,
    ),
    ...REACTED.map((_, i) => `case when ${reacted} = ${i} then 1 else 0 end`),
  ];
}

const upsert = `on conflict (distribution_id, span, day, kind, name) do update set
  ${COUNTS.map((c) => `${c} = source_counts.${c} + excluded.${c}`).join(', ')}`;

async function sqliteTrigger(db: Kysely<any>, source: string): Promise<void> {
  const created = 'new.created_at';
  // Brussels: UTC+2 from the last Sunday of March to the last Sunday of October, 01:00 UTC.
  const day = `case when ${created} >= date(substr(${created}, 1, 4) || '-03-25', 'weekday 0') || 'T01:00:00'
    and ${created} < date(substr(${created}, 1, 4) || '-10-25', 'weekday 0') || 'T01:00:00'
    then date(${created}, '+2 hours') else date(${created}, '+1 hours') end`;
  const reacted = `case when old.first_status_at is null and new.first_status_at is not null
    then ${bucket(`(julianday(new.first_status_at) - julianday(${created})) * 24`)} end`;
  const span = `case s.span when 'day' then ${day} else date(${day}, 'weekday 0', '-6 days') end`;
  await sql`drop trigger leads_source_count`.execute(db);
  // `where true`: an upsert's SELECT with a join needs a WHERE, or SQLite reads ON CONFLICT as the join's ON.
  await sql
    .raw(`create trigger leads_source_count after update of status, first_status_at on leads
    when (old.status <> new.status or (old.first_status_at is null and new.first_status_at is not null))
      and old.created_at < coalesce((select sourced_to from lead_projections where distribution_id = old.distribution_id), '')
    begin
      insert into source_counts (distribution_id, span, day, kind, name, ${COUNTS.join(', ')})
        select new.distribution_id, s.span, ${span}, k.kind,
          case k.kind when 'origin' then c.origin else c.sender end, ${deltas(reacted).join(', ')}
        from (${source}) as c, (select 'origin' as kind union all select 'sender') as k,
          (select 'day' as span union all select 'week') as s
        where true
      ${upsert};
    end`)
    .execute(db);
}

async function postgresTrigger(db: Kysely<any>, source: string): Promise<void> {
  // As the first: the mark FOR SHARE against the projector's FOR UPDATE, rows taken day, then
  // week, origin, then sender. Replacing the function leaves the trigger that calls it.
  await sql
    .raw(`create or replace function lead_source_count() returns trigger language plpgsql as $$
    declare
      mark text;
      reacted integer;
    begin
      insert into lead_projections (distribution_id) values (new.distribution_id) on conflict do nothing;
      select sourced_to into mark from lead_projections where distribution_id = new.distribution_id for share;
      if new.created_at >= mark then
        return null;
      end if;
      if old.first_status_at is null and new.first_status_at is not null then
        reacted := ${bucket('extract(epoch from (cast(new.first_status_at as timestamptz) - cast(new.created_at as timestamptz))) / 3600')};
      end if;
      insert into source_counts (distribution_id, span, day, kind, name, ${COUNTS.join(', ')})
        select new.distribution_id, s.span, to_char(case s.span when 'day' then brussels else date_trunc('week', brussels) end, 'YYYY-MM-DD'),
          k.kind, case k.kind when 'origin' then c.origin else c.sender end,
          ${deltas('reacted').join(', ')}
        from (${source}) as c cross join (values ('origin'), ('sender')) as k (kind)
          cross join (values ('day'), ('week')) as s (span)
          cross join (select cast(new.created_at as timestamptz) at time zone 'Europe/Brussels' as brussels) as t
        order by s.span, k.kind
      ${upsert};
      return null;
    end $$`)
    .execute(db);
}
