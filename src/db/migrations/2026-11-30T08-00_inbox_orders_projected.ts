// SQLite: three of the inbox's orders leave the push's transaction (issue 34; docs/design.md
// section 13, "How far behind the inbox may be"). The orders by status, name and kind are
// read from `lead_orders`, which the inbox projector fills after the commits, as it fills the
// word index, instead of from indexes of `leads` that every push wrote: three index entries
// and 15% of a minimal push's WAL bytes fewer in the push's transaction, some 10 µs of its
// CPU, against 3 µs in the projector's batch (docs/benchmarks.md, "Evening of 2026-11-28
// (issue 34): three of the inbox's orders after the commit"). None of the three is a filter
// of the inbox, so only a page in one of these orders reads the table.
//
// - `lead_orders`: one row per lead, keyed by the lead's rowid (as the word index is), with
//   what the three orders sort by: the status's rank in the workflow, the folded name, the
//   kind. Leads whose (updated_at, id) is at most the projector's word mark
//   (`lead_projections.indexed_at`, `indexed_id`) have their current row; a page in one of
//   these orders first projects the leads past the mark, so a lead is in its place as soon as
//   its push or change has answered. Every write that changes a status, a name or a kind
//   stamps the lead's updated_at, which puts it past the mark.
// - A lead deleted (erasure, merge, retention) leaves it in the delete's own transaction (a
//   trigger, as the word index), so a rowid SQLite gives again never finds another lead's row.
// - `leads_status_order`, `leads_sort_name` and `leads_kind` go; the columns stay (the push
//   writes them, the projector copies them).
// PostgreSQL keeps its indexes on `leads`: its projector only counts (it has no writer time
// before which nothing can still commit), and its push's cost lies elsewhere. Nothing to do
// there. Frozen: written against Kysely<any>, imports nothing of the app.
import { type Kysely, PostgresAdapter, sql } from 'kysely';

const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

const RANK =
  "(case status when 'new' then 0 when 'contacted' then 1 when 'quoted' then 2 when 'won' then 3 when 'lost' then 4 end)";

export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) return;
  const statements = [
    `create table lead_orders (lead_rowid integer primary key, distribution_id text not null, id text not null,
      status_rank integer, sort_name text, kind text)`,
    'create index lead_orders_status on lead_orders (distribution_id, status_rank, id)',
    'create index lead_orders_sort_name on lead_orders (distribution_id, sort_name, id) where sort_name is not null',
    'create index lead_orders_kind on lead_orders (distribution_id, kind, id)',
    `insert into lead_orders (lead_rowid, distribution_id, id, status_rank, sort_name, kind)
      select rowid, distribution_id, id, ${RANK}, sort_name, kind from leads`,
    `create trigger leads_orders_delete after delete on leads begin
      delete from lead_orders where lead_rowid = old.rowid; end`,
    'drop index leads_status_order',
    'drop index leads_sort_name',
    'drop index leads_kind',
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) return;
  const statements = [
    `create index leads_status_order on leads (distribution_id, ${RANK}, id)`,
    'create index leads_sort_name on leads (distribution_id, sort_name, id) where sort_name is not null',
    'create index leads_kind on leads (distribution_id, kind, id)',
    'drop trigger leads_orders_delete',
    'drop table lead_orders',
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}
