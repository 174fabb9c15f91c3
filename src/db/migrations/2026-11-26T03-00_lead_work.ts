// The broker's work on a lead (docs/design.md section 13): its status, lost reason and
// assignee on the lead row; a change log of every PATCH (the lead's and the party's: what
// changed and by whom) and the broker's notes, each row carrying lead_id, party_id and
// distribution_id so erasure finds them; the words the inbox searches (search_words,
// indexed by FTS5 on SQLite and a GIN index on PostgreSQL); and the counts per status
// that the inbox shows, kept by triggers so a read costs the same at 1,000 leads as at
// 100,000 and a lead deleted by any path (erasure, retention) leaves the counts right.
// Frozen in time: Kysely<any>, no app imports (the search words' backfill folds text as
// the app did when this was written).
import { type Kysely, PostgresAdapter, sql } from 'kysely';

const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = isPostgres(db);
  await db.schema
    .alterTable('leads')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('new'))
    .execute();
  await db.schema.alterTable('leads').addColumn('lost_reason', 'text').execute();
  await db.schema
    .alterTable('leads')
    .addColumn('assignee_id', 'text', (c) => c.references('users.id'))
    .execute();
  await db.schema.alterTable('leads').addColumn('status_changed_at', 'text').execute();
  await db.schema
    .alterTable('leads')
    .addColumn('search_words', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.updateTable('leads').set({ status_changed_at: sql`created_at` }).execute();

  // The inbox's orders and filters (docs/broker-app.md, "Broker app"): received, and the
  // statuses and assignees a broker set (partial: a new, unassigned lead adds nothing to
  // them).
  await db.schema.createIndex('leads_received').on('leads').columns(['distribution_id', 'created_at', 'id']).execute();
  await db.schema
    .createIndex('leads_status')
    .on('leads')
    .columns(['distribution_id', 'status', 'updated_at', 'id'])
    .where(sql.ref('status'), '<>', 'new')
    .execute();
  await db.schema
    .createIndex('leads_assignee')
    .on('leads')
    .columns(['distribution_id', 'assignee_id', 'updated_at', 'id'])
    .where('assignee_id', 'is not', null)
    .execute();

  await db.schema
    .createTable('lead_changes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('lead_id', 'text', (c) => c.notNull().references('leads.id'))
    .addColumn('party_id', 'text', (c) => c.notNull())
    .addColumn('distribution_id', 'text', (c) => c.notNull().references('distributions.id'))
    .addColumn('changed_at', 'text', (c) => c.notNull())
    // `token:<id>` or `user:<id>`, as the push log names its caller.
    .addColumn('caller', 'text', (c) => c.notNull())
    // 'lead' (PATCH .../leads/{id}, or the broker app's forms) or 'party' (PATCH .../parties/{id}).
    .addColumn('subject', 'text', (c) => c.notNull())
    // JSON: what changed, each field with its value before and after.
    .addColumn('changes', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('lead_changes_lead').on('lead_changes').columns(['lead_id', 'changed_at']).execute();

  await db.schema
    .createTable('lead_notes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('lead_id', 'text', (c) => c.notNull().references('leads.id'))
    .addColumn('party_id', 'text', (c) => c.notNull())
    .addColumn('distribution_id', 'text', (c) => c.notNull().references('distributions.id'))
    .addColumn('author_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('lead_notes_lead').on('lead_notes').columns(['lead_id', 'created_at']).execute();

  // Leads per status, in shards on PostgreSQL so that concurrent pushes into one
  // distribution do not queue on one row; a count is the sum of its shards.
  await db.schema
    .createTable('lead_status_counts')
    .addColumn('distribution_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('shard', 'integer', (c) => c.notNull())
    .addColumn('leads', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('lead_status_counts_pk', ['distribution_id', 'status', 'shard'])
    .execute();
  if (postgres) await postgresTriggers(db);
  else await sqliteTriggers(db);
  await sql`insert into lead_status_counts (distribution_id, status, shard, leads)
    select distribution_id, status, 0, count(*) from leads group by distribution_id, status`.execute(db);

  await backfillSearchWords(db);
  if (postgres) {
    await sql`create index leads_search on leads using gin (to_tsvector('simple', search_words))`.execute(db);
  } else {
    await sql`insert into lead_search (lead_search) values ('rebuild')`.execute(db);
  }
}

async function sqliteTriggers(db: Kysely<any>): Promise<void> {
  const count = (distribution: string, status: string, delta: number) =>
    `insert into lead_status_counts (distribution_id, status, shard, leads) values (${distribution}, ${status}, 0, ${delta})
      on conflict (distribution_id, status, shard) do update set leads = leads + ${delta};`;
  // The search words are the lead's own column; FTS5 indexes them as external content
  // (rowid of the lead), kept in step by the triggers the FTS5 documentation gives.
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
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}

async function postgresTriggers(db: Kysely<any>): Promise<void> {
  // Both rows of a status change in one statement, in status order: two changes never
  // take each other's shard rows in opposite orders.
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
}

/**
 * Words of the leads stored before this migration: names, e-mail, telephone (also as its
 * digits), address, enterprise number, external refs of the party and its policies, VINs.
 * Letters and digits, folded, as the app writes them for every later change.
 */
async function backfillSearchWords(db: Kysely<any>): Promise<void> {
  const fold = (text: string) =>
    text
      .normalize('NFD')
      .replace(/\p{M}+/gu, '')
      .toLowerCase();
  const words = (text: string) => fold(text).match(/[\p{L}\p{N}]+/gu) ?? [];
  let after = '';
  for (;;) {
    const leads: Array<{ id: string; party_id: string; data: string }> = await db
      .selectFrom('leads')
      .innerJoin('parties', 'parties.id', 'leads.party_id')
      .select(['leads.id', 'leads.party_id', 'parties.data'])
      .where('leads.id', '>', after)
      .orderBy('leads.id')
      .limit(500)
      .execute();
    if (leads.length === 0) return;
    const partyIds = leads.map((lead) => lead.party_id);
    const refs: Array<{ owner: string; ref: string }> = await db
      .selectFrom('external_refs')
      .leftJoin('insurance_policies', 'insurance_policies.id', 'external_refs.entity_id')
      .select([sql<string>`coalesce(insurance_policies.party_id, external_refs.entity_id)`.as('owner'), 'ref'])
      .where((eb) =>
        eb.or([eb('external_refs.entity_id', 'in', partyIds), eb('insurance_policies.party_id', 'in', partyIds)]),
      )
      .execute();
    const vins: Array<{ party_id: string; vin: string }> = await db
      .selectFrom('risk_objects')
      .select(['party_id', 'vin'])
      .where('party_id', 'in', partyIds)
      .where('vin', 'is not', null)
      .where('removed_at', 'is', null)
      .execute();
    for (const lead of leads) {
      const data = JSON.parse(lead.data) as Record<string, unknown>;
      const address = (data.address ?? {}) as Record<string, unknown>;
      const texts = [
        data.first_name,
        data.last_name,
        data.name,
        data.email,
        data.telephonenr,
        typeof data.telephonenr === 'string' ? data.telephonenr.replace(/\D/g, '') : '',
        address.street,
        address.zipcode,
        address.city,
        typeof data.enterprise_nr === 'string' ? data.enterprise_nr.replace(/\W/g, '') : '',
        ...refs.filter((r) => r.owner === lead.party_id).map((r) => r.ref),
        ...vins.filter((v) => v.party_id === lead.party_id).map((v) => v.vin),
      ];
      const all = [...new Set(texts.flatMap((text) => (typeof text === 'string' ? words(text) : [])))];
      await db
        .updateTable('leads')
        .set({ search_words: all.join(' ') })
        .where('id', '=', lead.id)
        .execute();
    }
    after = leads.at(-1)!.id;
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop trigger leads_status_count on leads`.execute(db);
    await sql`drop function lead_status_count()`.execute(db);
    await sql`drop index leads_search`.execute(db);
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
  for (const table of ['lead_status_counts', 'lead_notes', 'lead_changes']) await db.schema.dropTable(table).execute();
  for (const index of ['leads_assignee', 'leads_status', 'leads_received']) await db.schema.dropIndex(index).execute();
  for (const column of ['search_words', 'status_changed_at', 'assignee_id', 'lost_reason', 'status'])
    await db.schema.alterTable('leads').dropColumn(column).execute();
}
