// The parties of the possible-duplicates benchmark (bench/duplicates.ts), written by the
// database itself: a few INSERT ... SELECT statements over a series of numbers (a recursive
// CTE on SQLite, generate_series on PostgreSQL) in one transaction, so a million parties
// take minutes where writing them through the app took over 45. Each party n gets the rows
// the service keeps for a customer pushed with the same fields (the columns the migrations
// create; the keys as duplicate-keys.ts normalises them):
// - a unique e-mail, except every 50th party (n % 50 = 1) shares the one before's: the
//   duplicate each sampled party has;
// - a unique mobile number, except every 100th party (n % 100 = 7) shares the one before's
//   (a household);
// - a birth date spread over 80 years (some 34 parties share each at a million, as many as
//   in a real population of that size) with a folded `first last` name beside it, the first
//   one of ten by a hash, the last eight letters scattered by a multiplicative hash, so a shared date
//   is rarely a close name; keyed by the date with the first two letters of each word of the
//   name, as duplicate-keys.ts keys it;
// - a car (a unique VIN) for every other party.
// The inbox's projection is written as its projector would leave it (counts, SQLite's word
// index, the marks), so the server measured starts with nothing to catch up.
import { type Kysely, sql } from 'kysely';
import type { Database, Dialect } from '../src/db/database.ts';

const FIRST_NAMES = ['Els', 'Jan', 'An', 'Pieter', 'Sofie', 'Lukas', 'Marie', 'Tom', 'Lotte', 'Wout'];
/** Every sampled party is one whose e-mail is shared (n % 50 = 1). */
export const SAMPLE_STEP = 50;
const AT = '2026-01-01T00:00:00.000Z';
/** Just after AT: every seeded lead is counted. */
const COUNTED_TO = '2026-01-01T00:00:00.001Z';
const DAYS = 80 * 365;

/** The SQL spelling that differs between the two databases. */
interface Spelling {
  series(count: number): string;
  hex(expression: string, width: number): string;
  char(expression: string): string;
  padded(expression: string, width: number): string;
  birth(days: string): string;
  json(pairs: string[]): string;
}

const SQLITE: Spelling = {
  series: (count) => `with recursive series(n) as (select 0 union all select n + 1 from series where n + 1 < ${count})`,
  hex: (e, width) => `printf('%0${width}x', ${e})`,
  char: (e) => `char(${e})`,
  padded: (e, width) => `printf('%0${width}d', ${e})`,
  birth: (days) => `date('1940-01-01', '+' || (${days}) || ' days')`,
  json: (pairs) => `json_object(${pairs.join(', ')})`,
};

const POSTGRES: Spelling = {
  series: (count) => `with series(n) as (select generate_series(0::bigint, ${count - 1}::bigint))`,
  hex: (e, width) => `lpad(to_hex(${e}), ${width}, '0')`,
  char: (e) => `chr((${e})::int)`,
  padded: (e, width) => `lpad((${e})::text, ${width}, '0')`,
  birth: (days) => `to_char(date '1940-01-01' + (${days})::int, 'YYYY-MM-DD')`,
  json: (pairs) => `json_build_object(${pairs.join(', ')})::text`,
};

/** A 32-bit multiplicative hash of an integer expression. */
const hash = (e: string) => `(((${e}) + 1) * 2654435761 % 4294967296)`;

/**
 * The series with every value a party's rows are made of: its number `n`, ids, first and
 * last name, the number `o` whose e-mail it has, and `t` whose telephone.
 */
function partiesOf(s: Spelling, count: number): string {
  // The first name by a hash of the party's number, not the number itself: the parties born on
  // one day are n + 29,200 k (n * 7919 modulo the days), so `n % 10` gave them all one first
  // name, where a population's first names do not depend on the birth date.
  const firstOf = (v: string) =>
    `case ${hash(`${v} + 3`)} % ${FIRST_NAMES.length} ${FIRST_NAMES.map((name, i) => `when ${i} then '${name}'`).join(' ')} end`;
  const first = firstOf('n');
  const letters = (h: string) => [0, 1, 2, 3].map((i) => s.char(`97 + (${h} / ${26 ** i}) % 26`));
  const last = [...letters(hash('n')), ...letters(hash('n + 1000003'))].join(' || ');
  return `${s.series(count)},
    numbered as (select n,
        case when n % ${SAMPLE_STEP} = 1 then n - 1 else n end as o,
        case when n % 100 = 7 then n - 1 else n end as t
      from series),
    party as (select n, o, t,
        ${s.hex(hash('n'), 8)} || '-0000-4000-8000-' || ${s.hex('n', 12)} as id,
        ${s.hex(hash('n + 7'), 8)} || '-0000-4000-9000-' || ${s.hex('n', 12)} as lead_id,
        ${first} as first_name,
        ${last} as last_name,
        lower(${firstOf('o')}) || '.' || ${s.hex(hash('o'), 8)} || '.' || o || '@example.be' as email,
        '+3247' || ${s.padded('t', 7)} as telephone,
        ${s.birth(`n * 7919 % ${DAYS}`)} as birth
      from numbered)`;
}

/** Writes `count` parties into the distribution; the ids of every SAMPLE_STEP-th `every` one that has a twin. */
export async function seedParties(
  db: Kysely<Database>,
  dialect: Dialect,
  distributionId: string,
  count: number,
  sampled: number,
): Promise<string[]> {
  const s = dialect === 'postgres' ? POSTGRES : SQLITE;
  const parties = partiesOf(s, count);
  const d = `'${distributionId}'`;
  const key = (kind: string, value: string, name = 'null', where = '') =>
    `${parties} insert into party_duplicate_keys (distribution_id, kind, key, party_id, name)
      select ${d}, '${kind}', ${value}, id, ${name} from party ${where}`;
  const data = s.json([
    `'first_name', first_name`,
    `'last_name', last_name`,
    `'email', email`,
    `'telephonenr', telephone`,
    `'birth', birth`,
  ]);
  const statements = [
    `${parties} insert into parties (id, distribution_id, type, data, match_key, version, created_at, updated_at)
      select id, ${d}, 'CUSTOMER', ${data}, null, 1, '${AT}', '${AT}' from party`,
    `${parties} insert into leads (id, distribution_id, party_id, origin, backref, source, created_at, updated_at,
        status, lost_reason, assignee_id, status_changed_at, search_words)
      select lead_id, ${d}, id, 'partner-portal', null, null, '${AT}', '${AT}',
        'new', null, null, '${AT}', lower(first_name || ' ' || last_name) from party`,
    key('email', 'email'),
    key('telephone', 'telephone'),
    // The birth date with the first two letters of each word of the name (duplicate-keys.ts, birthKeys).
    key('birth', `birth || '|' || lower(substr(first_name, 1, 2))`, `lower(first_name || ' ' || last_name)`),
    key(
      'birth',
      `birth || '|' || substr(last_name, 1, 2)`,
      `lower(first_name || ' ' || last_name)`,
      'where lower(substr(first_name, 1, 2)) <> substr(last_name, 1, 2)',
    ),
    key('vin', `'WVWZZZ1JZ' || ${s.padded('n', 8)}`, 'null', 'where n % 2 = 0'),
    `insert into lead_status_counts (distribution_id, status, leads) values (${d}, 'new', ${count})
      on conflict (distribution_id, status) do update set leads = excluded.leads`,
    `insert into lead_projections (distribution_id, counted_to, indexed_at, indexed_id)
      select ${d}, '${COUNTED_TO}', '${AT}', max(id) from leads where distribution_id = ${d}
      on conflict (distribution_id) do update set counted_to = excluded.counted_to,
        indexed_at = excluded.indexed_at, indexed_id = excluded.indexed_id`,
    ...(dialect === 'sqlite'
      ? ['insert into lead_search (rowid, search_words) select rowid, search_words from leads']
      : []),
  ];
  // SQLite: room for every page the transaction changes (2 GB), or the pages spilled from
  // its default cache are written to the WAL again at every change (1.3 GB of WAL and 20
  // minutes short of a million parties, measured).
  if (dialect === 'sqlite') await sql.raw('pragma cache_size = -2000000').execute(db);
  await db.transaction().execute(async (trx) => {
    for (const statement of statements) await sql.raw(statement).execute(trx);
  });
  if (dialect === 'postgres') await sql`analyze`.execute(db);
  const every = Math.max(SAMPLE_STEP, Math.floor(count / sampled / SAMPLE_STEP) * SAMPLE_STEP);
  const rows = await sql
    .raw<{ id: string }>(`${parties} select id from party where n % ${every} = 1 order by n limit ${sampled}`)
    .execute(db);
  return rows.rows.map((row) => row.id);
}
