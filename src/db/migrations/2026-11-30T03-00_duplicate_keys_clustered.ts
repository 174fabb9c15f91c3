// SQLite: the possible-duplicate keys (2026-11-28T05-00) become a WITHOUT ROWID table, so its
// rows live in the primary key's own b-tree (distribution, kind, key, party): the entries that
// share a key are neighbours, with the name beside a birth date, where before each was one
// more look-up in the rowid table. At a million parties some 34 share each birth date, and
// those look-ups were most of a duplicates read (docs/benchmarks.md, "Possible duplicates");
// a push writing or replacing a party's keys now writes one b-tree where it wrote two.
// The rows are copied, which takes a few seconds per million. PostgreSQL's table stays as it
// is (it reads the shared entries by the primary key's index, 0.97x at a million).
// Frozen in time: Kysely<any>, no app imports.
import { type Kysely, PostgresAdapter, sql } from 'kysely';

const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

async function rebuild(db: Kysely<any>, clustered: boolean): Promise<void> {
  await db.schema
    .createTable('party_duplicate_keys_rebuilt')
    .addColumn('distribution_id', 'text', (c) => c.notNull().references('distributions.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('party_id', 'text', (c) => c.notNull().references('parties.id'))
    .addColumn('name', 'text')
    .addPrimaryKeyConstraint('party_duplicate_keys_pk', ['distribution_id', 'kind', 'key', 'party_id'])
    .modifyEnd(clustered ? sql`without rowid` : sql``)
    .execute();
  await sql`insert into party_duplicate_keys_rebuilt (distribution_id, kind, key, party_id, name)
    select distribution_id, kind, key, party_id, name from party_duplicate_keys`.execute(db);
  await db.schema.dropTable('party_duplicate_keys').execute();
  await sql`alter table party_duplicate_keys_rebuilt rename to party_duplicate_keys`.execute(db);
  await db.schema.createIndex('party_duplicate_keys_party').on('party_duplicate_keys').column('party_id').execute();
}

export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) await rebuild(db, true);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) await rebuild(db, false);
}
