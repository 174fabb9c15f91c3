// Possible duplicates by birth date (docs/api.md, "Possible duplicates"): a customer's birth key
// becomes the birth date with the first two letters of each word of its folded name
// (`1971-03-02|ja`, `1971-03-02|pe`), one row each, the whole name still beside it, so a
// look-up reads the few parties born that day whose name starts a word the same way, not
// every one of the ~34 a million people share a date with (docs/benchmarks.md). The stored
// names are split here as the app splits them (words of letters and digits, one space apart,
// so a JSON array of them needs no escaping). Frozen in time: Kysely<any>, no app imports.
import { type Kysely, PostgresAdapter, sql } from 'kysely';

const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

export async function up(db: Kysely<any>): Promise<void> {
  const [words, word] = isPostgres(db)
    ? [sql`cross join lateral regexp_split_to_table(k.name, ' ') as w (word)`, sql`w.word`]
    : [sql`cross join json_each('["' || replace(k.name, ' ', '","') || '"]') as w`, sql`w.value`];
  await sql`insert into party_duplicate_keys (distribution_id, kind, key, party_id, name)
    select distinct k.distribution_id, 'birth', k.key || '|' || substr(${word}, 1, 2), k.party_id, k.name
    from party_duplicate_keys k ${words}
    where k.kind = 'birth' and k.name is not null and ${word} <> '' and k.key not like '%|%'
    on conflict do nothing`.execute(db);
  await sql`delete from party_duplicate_keys where kind = 'birth' and key not like '%|%'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`insert into party_duplicate_keys (distribution_id, kind, key, party_id, name)
    select distinct distribution_id, 'birth', substr(key, 1, instr_position - 1), party_id, name
    from (select *, ${isPostgres(db) ? sql`strpos(key, '|')` : sql`instr(key, '|')`} as instr_position
      from party_duplicate_keys where kind = 'birth' and key like '%|%') as k
    where true on conflict do nothing`.execute(db);
  await sql`delete from party_duplicate_keys where kind = 'birth' and key like '%|%'`.execute(db);
}
