// Where leads come from, from aggregates (docs/design.md section 13, "How far behind the
// sources may be"): `/app/sources` and `.../stats/sources` sum a row per Brussels day and
// source instead of grouping every push of the period at request time.
//
// - `source_counts`, one row per distribution, span ('day' or 'week'), Brussels day (of the
//   push; for a week its Monday), kind ('origin' or 'sender') and name (the origin, '' for none, which a push cannot send; or the
//   caller): the pushes received, created and merged; of the leads those pushes created,
//   how many are contacted, quoted, won and lost now; and how many first moved from `new`
//   within each bucket of hours (`reacted_00` ... `reacted_30`, bounds in REACTION_BOUNDS
//   below and in party/stats/source-stats.ts), the median's histogram.
// - `lead_projections.sourced_to`: pushes received before it are in `source_counts`. The
//   inbox projector moves it after the pushes' commits (no row every push writes, issue 34);
//   a read adds the pushes past it from `lead_pushes` in the same statement.
// - A status change of a lead whose creating push is counted moves its count in the
//   change's own transaction (a broker's write, not a push), by trigger as for the inbox's
//   counts, and its first change adds it to its bucket. Erasures and merges move nothing:
//   the counts hold no personal data (section 14), and a lead gone counts under its last
//   status.
// - `lead_pushes_sources` (every column a period's pushes were grouped by) gives way to
//   `lead_pushes_period` (distribution, received_at): the read takes only the pushes past
//   the mark, so every push writes a narrower index entry.
// Starts empty: the projector folds every stored push on its first run.
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

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = isPostgres(db);
  await db.schema
    .alterTable('lead_projections')
    .addColumn('sourced_to', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  let table = db.schema
    .createTable('source_counts')
    .addColumn('distribution_id', 'text', (c) => c.notNull())
    .addColumn('span', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull());
  for (const column of COUNTS) table = table.addColumn(column, 'integer', (c) => c.notNull().defaultTo(0));
  await table.addPrimaryKeyConstraint('source_counts_pk', ['distribution_id', 'span', 'day', 'kind', 'name']).execute();
  await db.schema.dropIndex('lead_pushes_sources').execute();
  await db.schema
    .createIndex('lead_pushes_period')
    .on('lead_pushes')
    .columns(['distribution_id', 'received_at'])
    .execute();
  if (postgres) await postgresTrigger(db);
  else await sqliteTrigger(db);
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

async function sqliteTrigger(db: Kysely<any>): Promise<void> {
  const created = 'new.created_at';
  // Brussels: UTC+2 from the last Sunday of March to the last Sunday of October, 01:00 UTC.
  const day = `case when ${created} >= date(substr(${created}, 1, 4) || '-03-25', 'weekday 0') || 'T01:00:00'
    and ${created} < date(substr(${created}, 1, 4) || '-10-25', 'weekday 0') || 'T01:00:00'
    then date(${created}, '+2 hours') else date(${created}, '+1 hours') end`;
  const reacted = `case when old.first_status_at is null and new.first_status_at is not null
    then ${bucket(`(julianday(new.first_status_at) - julianday(${created})) * 24`)} end`;
  const span = `case s.span when 'day' then ${day} else date(${day}, 'weekday 0', '-6 days') end`;
  await sql
    .raw(`create trigger leads_source_count after update of status, first_status_at on leads
    when (old.status <> new.status or (old.first_status_at is null and new.first_status_at is not null))
      and old.created_at < coalesce((select sourced_to from lead_projections where distribution_id = old.distribution_id), '')
    begin
      insert into source_counts (distribution_id, span, day, kind, name, ${COUNTS.join(', ')})
        select new.distribution_id, s.span, ${span}, k.kind,
          case k.kind when 'origin' then coalesce(p.origin, '') else p.caller end, ${deltas(reacted).join(', ')}
        from lead_pushes p, (select 'origin' as kind union all select 'sender') as k,
          (select 'day' as span union all select 'week') as s
        where p.lead_id = new.id and p.received_at = new.created_at and p.status = 201
      ${upsert};
    end`)
    .execute(db);
}

async function postgresTrigger(db: Kysely<any>): Promise<void> {
  // The mark is read FOR SHARE after making sure its row exists: a projector moving it
  // (FOR UPDATE) and this change wait for each other, so the lead is counted with the
  // status it has once both committed, by exactly one of them. Rows are taken in one order
  // (day, then week; origin, then sender): two changes never cross.
  await sql
    .raw(`create function lead_source_count() returns trigger language plpgsql as $$
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
          k.kind, case k.kind when 'origin' then coalesce(p.origin, '') else p.caller end,
          ${deltas('reacted').join(', ')}
        from lead_pushes p cross join (values ('origin'), ('sender')) as k (kind)
          cross join (values ('day'), ('week')) as s (span)
          cross join (select cast(new.created_at as timestamptz) at time zone 'Europe/Brussels' as brussels) as t
        where p.lead_id = new.id and p.received_at = new.created_at and p.status = 201
        order by s.span, k.kind
      ${upsert};
      return null;
    end $$`)
    .execute(db);
  await sql
    .raw(`create trigger leads_source_count after update of status, first_status_at on leads
    for each row when (old.status is distinct from new.status
      or (old.first_status_at is null and new.first_status_at is not null))
    execute function lead_source_count()`)
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop trigger leads_source_count on leads`.execute(db);
    await sql`drop function lead_source_count()`.execute(db);
  } else await sql`drop trigger leads_source_count`.execute(db);
  await db.schema.dropIndex('lead_pushes_period').execute();
  await db.schema
    .createIndex('lead_pushes_sources')
    .on('lead_pushes')
    .columns(['distribution_id', 'received_at', 'status', 'origin', 'caller', 'lead_id'])
    .execute();
  await db.schema.dropTable('source_counts').execute();
  await db.schema.alterTable('lead_projections').dropColumn('sourced_to').execute();
}
