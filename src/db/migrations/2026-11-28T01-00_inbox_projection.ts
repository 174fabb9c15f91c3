// The inbox's counts per status and (SQLite) its word index leave the push's transaction
// (docs/design.md section 13, "How far behind the inbox may be"): a push writes the lead's
// row and its search words and nothing else of the inbox's; the inbox projector
// (src/party/inbox/inbox-projection.service.ts) brings both up to date after the commit.
//
// - `lead_projections`, one row per distribution: leads created before `counted_to` are
//   in `lead_status_counts`; on SQLite, leads whose (updated_at, id) is at most
//   (`indexed_at`, `indexed_id`) have their current words in `lead_search`. Leads after
//   the marks are read from `leads` itself (the counts add them, a search indexes them
//   first), so nothing a push wrote is ever missing from the inbox.
// - `lead_status_counts` loses its shards and its insert trigger: no row that every new
//   lead writes. A status change or a delete of a lead already counted still moves the
//   count in its own transaction (a broker's change or an erasure, not a push).
// - SQLite: `lead_search` becomes a contentless FTS5 table that deletes (contentless_delete):
//   the projector replaces a lead's words by rowid, in one statement for a batch of leads,
//   which costs one new index segment per batch instead of one per push; a deleted lead
//   leaves it in the delete's own transaction.
// Both start empty: the projector counts and indexes every stored lead on its first run.
// Frozen in time: Kysely<any>, no app imports.
import { type Kysely, PostgresAdapter, sql } from 'kysely';

const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = isPostgres(db);
  await db.schema
    .createTable('lead_projections')
    .addColumn('distribution_id', 'text', (c) => c.primaryKey())
    .addColumn('counted_to', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('indexed_at', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('indexed_id', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  if (postgres) {
    await sql`drop trigger leads_status_count on leads`.execute(db);
    await sql`drop function lead_status_count()`.execute(db);
  } else {
    for (const trigger of [
      'leads_search_insert',
      'leads_search_delete',
      'leads_search_update',
      'leads_count_insert',
      'leads_count_delete',
      'leads_count_update',
    ])
      await sql.raw(`drop trigger ${trigger}`).execute(db);
    await sql`drop table lead_search`.execute(db);
  }
  await db.schema.dropTable('lead_status_counts').execute();
  await db.schema
    .createTable('lead_status_counts')
    .addColumn('distribution_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('leads', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('lead_status_counts_pk', ['distribution_id', 'status'])
    .execute();
  if (postgres) await postgresTriggers(db);
  else await sqliteTriggers(db);
}

async function sqliteTriggers(db: Kysely<any>): Promise<void> {
  const count = (distribution: string, status: string, delta: number) =>
    `insert into lead_status_counts (distribution_id, status, leads) values (${distribution}, ${status}, ${delta})
      on conflict (distribution_id, status) do update set leads = leads + ${delta};`;
  const counted = `old.created_at < coalesce((select counted_to from lead_projections where distribution_id = old.distribution_id), '')`;
  const statements = [
    `create virtual table lead_search using fts5(search_words, content='', contentless_delete=1,
      tokenize='unicode61 remove_diacritics 2', prefix='1 2 3 4')`,
    `create trigger leads_search_delete after delete on leads begin
      delete from lead_search where rowid = old.rowid; end`,
    `create trigger leads_count_delete after delete on leads when ${counted} begin
      ${count('old.distribution_id', 'old.status', -1)} end`,
    `create trigger leads_count_update after update of status on leads when old.status <> new.status and ${counted} begin
      ${count('old.distribution_id', 'old.status', -1)} ${count('new.distribution_id', 'new.status', 1)} end`,
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}

async function postgresTriggers(db: Kysely<any>): Promise<void> {
  // The distribution's mark is read FOR SHARE: a projector moving it (FOR UPDATE) and this
  // change wait for each other, so a lead is counted by exactly one of them with the status
  // it has once both committed. Counts rows are taken in status order, never crossed.
  await sql
    .raw(`create function lead_status_count() returns trigger language plpgsql as $$
    declare
      mark text;
    begin
      insert into lead_projections (distribution_id) values (old.distribution_id) on conflict do nothing;
      select counted_to into mark from lead_projections where distribution_id = old.distribution_id for share;
      if old.created_at >= mark then
        return null;
      end if;
      if tg_op = 'DELETE' then
        insert into lead_status_counts values (old.distribution_id, old.status, -1)
          on conflict (distribution_id, status) do update set leads = lead_status_counts.leads - 1;
      else
        insert into lead_status_counts
          select new.distribution_id, change.status, change.delta
            from (values (old.status, -1), (new.status, 1)) as change (status, delta) order by change.status
          on conflict (distribution_id, status) do update set leads = lead_status_counts.leads + excluded.leads;
      end if;
      return null;
    end $$`)
    .execute(db);
  await sql
    .raw(`create trigger leads_status_count_delete after delete on leads
    for each row execute function lead_status_count()`)
    .execute(db);
  await sql
    .raw(`create trigger leads_status_count_update after update of status on leads
    for each row when (old.status is distinct from new.status) execute function lead_status_count()`)
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  const postgres = isPostgres(db);
  if (postgres) {
    await sql`drop trigger leads_status_count_delete on leads`.execute(db);
    await sql`drop trigger leads_status_count_update on leads`.execute(db);
    await sql`drop function lead_status_count()`.execute(db);
  } else {
    for (const trigger of ['leads_search_delete', 'leads_count_delete', 'leads_count_update'])
      await sql.raw(`drop trigger ${trigger}`).execute(db);
    await sql`drop table lead_search`.execute(db);
  }
  await db.schema.dropTable('lead_status_counts').execute();
  await db.schema.dropTable('lead_projections').execute();
  // The tables and triggers as 2026-11-26T03-00 and T07-00 left them, counted afresh.
  await db.schema
    .createTable('lead_status_counts')
    .addColumn('distribution_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('shard', 'integer', (c) => c.notNull())
    .addColumn('leads', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('lead_status_counts_pk', ['distribution_id', 'status', 'shard'])
    .execute();
  if (postgres) {
    await sql
      .raw(`create function lead_status_count() returns trigger language plpgsql as $$
      declare
        bucket integer := abs(hashtext(coalesce(new.id, old.id))) % 16;
      begin
        if tg_op = 'INSERT' then
          insert into lead_status_counts values (new.distribution_id, new.status, bucket, 1)
            on conflict (distribution_id, status, shard) do update set leads = lead_status_counts.leads + 1;
        elsif tg_op = 'DELETE' then
          insert into lead_status_counts values (old.distribution_id, old.status, bucket, -1)
            on conflict (distribution_id, status, shard) do update set leads = lead_status_counts.leads - 1;
        elsif old.status is distinct from new.status then
          insert into lead_status_counts
            select new.distribution_id, change.status, bucket, change.delta
              from (values (old.status, -1), (new.status, 1)) as change (status, delta) order by change.status
            on conflict (distribution_id, status, shard) do update set leads = lead_status_counts.leads + excluded.leads;
        end if;
        return null;
      end $$`)
      .execute(db);
    await sql
      .raw(`create trigger leads_status_count after insert or delete or update of status on leads
      for each row execute function lead_status_count()`)
      .execute(db);
  } else {
    const count = (distribution: string, status: string, delta: number) =>
      `insert into lead_status_counts (distribution_id, status, shard, leads) values (${distribution}, ${status}, 0, ${delta})
        on conflict (distribution_id, status, shard) do update set leads = leads + ${delta};`;
    const statements = [
      `create virtual table lead_search using fts5(search_words, content='leads', content_rowid='rowid',
        tokenize='unicode61 remove_diacritics 2', prefix='1 2 3 4')`,
      `create trigger leads_search_insert after insert on leads begin
        insert into lead_search (rowid, search_words) values (new.rowid, new.search_words); end`,
      `create trigger leads_search_delete after delete on leads begin
        insert into lead_search (lead_search, rowid, search_words) values ('delete', old.rowid, old.search_words); end`,
      `create trigger leads_search_update after update of search_words on leads when old.search_words <> new.search_words begin
        insert into lead_search (lead_search, rowid, search_words) values ('delete', old.rowid, old.search_words);
        insert into lead_search (rowid, search_words) values (new.rowid, new.search_words); end`,
      `create trigger leads_count_insert after insert on leads begin ${count('new.distribution_id', 'new.status', 1)} end`,
      `create trigger leads_count_delete after delete on leads begin ${count('old.distribution_id', 'old.status', -1)} end`,
      `create trigger leads_count_update after update of status on leads when old.status <> new.status begin
        ${count('old.distribution_id', 'old.status', -1)} ${count('new.distribution_id', 'new.status', 1)} end`,
      `insert into lead_search (lead_search) values ('rebuild')`,
    ];
    for (const statement of statements) await sql.raw(statement).execute(db);
  }
  await sql`insert into lead_status_counts (distribution_id, status, shard, leads)
    select distribution_id, status, 0, count(*) from leads group by distribution_id, status`.execute(db);
}
