// What an address import builds once its rows are in (store/staging.ts): lookups by id, a
// search over the addresses, their streets (sqlite-streets.repository.ts,
// postgres-streets.repository.ts), the words house and box numbers hold, and the postal codes.
import { serial, words } from '../search/postgres-documents.repository.ts';
import { FTS, longTerms } from '../search/sqlite-fts.repository.ts';
import type { DataSetIndexes, FinishStep } from '../store/staging.ts';

const STREET_COLUMNS = [
  'street_nl',
  'street_fr',
  'street_de',
  'zipcode',
  'municipality_nl',
  'municipality_fr',
  'municipality_de',
  'postname_nl',
  'postname_fr',
];

/**
 * An address's text but its numbers, the key of its street: two addresses with the same key
 * have the same words but their house and box numbers, whatever the columns held: all a
 * search compares. `separator` is the dialect's char(1); `alias` prefixes the columns.
 */
const streetKey = (separator: string, alias = '') =>
  `concat_ws(${separator}, ${STREET_COLUMNS.map((column) => alias + column).join(', ')})`;
const STREET_KEY = streetKey('char(1)');

/**
 * The streets of the addresses (sqlite-streets.repository.ts): one row per street in a
 * postal area (some 60 addresses each) searched as the addresses are, but for house and box
 * numbers; each street's addresses in key order with the words of their numbers
 * (`spaced_words`, store/sqlite-importer.repository.ts: " 12 a "); and the words numbers
 * hold, from the addresses' own index.
 */
const sqliteStreets: readonly FinishStep[] = [
  `create table temp.street_key (key text primary key, street integer not null, first_seq integer not null,
     addresses integer not null) without rowid`,
  `insert into temp.street_key
     select key, row_number() over (order by key), min(seq), count(*) from (select ${STREET_KEY} as key, seq from address) group by key`,
  'create table street (street integer primary key, addresses integer not null)',
  'insert into street select street, addresses from temp.street_key order by street',
  `create virtual table street_search using fts5(street, zipcode, place, ${FTS})`,
  `insert into street_search(rowid, street, zipcode, place)
     select k.street, concat_ws(' ', a.street_nl, a.street_fr, a.street_de), a.zipcode,
            concat_ws(' ', a.municipality_nl, a.municipality_fr, a.municipality_de, a.postname_nl, a.postname_fr)
     from temp.street_key k join address a on a.seq = k.first_seq`,
  `insert into street_search(street_search) values ('optimize')`,
  'create table temp.house_words (seq integer primary key, house text not null)',
  {
    sql: `insert into temp.house_words select seq, spaced_words(concat_ws(' ', housenr, boxnr)) from address
      where seq > ? and seq <= ?`,
    table: 'address',
    key: 'seq',
    rows: 20_000,
  },
  `create table street_address (street integer not null, seq integer not null, house text not null,
     primary key (street, seq)) without rowid`,
  `insert into street_address
     select k.street, a.seq, h.house
     from address a join temp.street_key k on k.key = ${STREET_KEY} join temp.house_words h on h.seq = a.seq
     order by 1, 2`,
  'drop table temp.street_key',
  'drop table temp.house_words',
  `create virtual table temp.address_search_columns using fts5vocab(main, address_search, 'col')`,
  'create table house_term (term text primary key) without rowid',
  `insert into house_term select term from temp.address_search_columns where col = 'housenr'`,
  'drop table temp.address_search_columns',
];

export const addressIndexes: DataSetIndexes = {
  sqlite: [
    'create index address_id on address(id)',
    `create virtual table address_search using fts5(street, housenr, zipcode, place, ${FTS})`,
    `insert into address_search(rowid, street, housenr, zipcode, place)
       select seq, concat_ws(' ', street_nl, street_fr, street_de), concat_ws(' ', housenr, boxnr), zipcode,
              concat_ws(' ', municipality_nl, municipality_fr, municipality_de, postname_nl, postname_fr)
       from address`,
    `insert into address_search(address_search) values ('optimize')`,
    ...longTerms('address_search'),
    ...sqliteStreets,
    `create table postal_code as
       select zipcode, postname_nl, postname_fr, municipality_nl, municipality_fr, municipality_de, count(*) as addresses,
              fold(concat_ws(' ', zipcode, postname_nl, postname_fr, municipality_nl, municipality_fr, municipality_de)) as search
       from address where zipcode is not null
       group by zipcode, postname_nl, postname_fr, municipality_nl, municipality_fr, municipality_de
       order by zipcode`,
  ],
  postgres: (t, f) => [
    `create index on ${t('address')} (id)`,
    // A street in one postal area: what an address's words are but its house and box
    // numbers, some 60 addresses each. Searching these first finds the few streets a
    // query of frequent words names (postgres-streets.repository.ts).
    `create table ${t('street')} as
       select row_number() over (order by key)::integer as street, key,
              setweight(${words(f, `concat_ws(' ', street_nl, street_fr, street_de)`)}, 'A')
              || ${words(f, `concat_ws(' ', zipcode, municipality_nl, municipality_fr, municipality_de, postname_nl, postname_fr)`)} as doc
       from (select distinct on (key) ${streetKey('chr(1)')} as key, * from ${t('address')} order by key) s`,
    `create unique index on ${t('street')} (key)`,
    `create index on ${t('street')} using gin (doc)`,
    `create table ${t('address_search')} as
       select a.seq,
              setweight(${words(f, `concat_ws(' ', a.street_nl, a.street_fr, a.street_de)`)}, 'A')
              || setweight(${words(f, `concat_ws(' ', a.housenr, a.boxnr)`)}, 'B')
              || ${words(f, `concat_ws(' ', a.zipcode, a.municipality_nl, a.municipality_fr, a.municipality_de, a.postname_nl, a.postname_fr)`)} as doc,
              a.zipcode,
              ${words(f, `concat_ws(' ', a.municipality_nl, a.municipality_fr, a.municipality_de, a.postname_nl, a.postname_fr)`)} as place,
              s.street
       from ${t('address')} a join ${t('street')} s on s.key = ${streetKey('chr(1)', 'a.')}
       order by a.seq`,
    `alter table ${t('address_search')} add primary key (seq)`,
    `create index on ${t('address_search')} using gin (doc)`,
    `create index on ${t('address_search')} (street, seq)`,
    serial(t('address_search')),
    serial(t('street')),
    `alter table ${t('street')} drop column key`,
    // The words house and box numbers hold: a query word that could be one of them does
    // not narrow the streets.
    `create table ${t('house_term')} as
       select distinct term from ${t('address')}, regexp_split_to_table(${f}(concat_ws(' ', housenr, boxnr)), '[^[:alnum:]]+') term
       where term <> ''`,
    `create table ${t('postal_code')} as
       select zipcode, postname_nl, postname_fr, municipality_nl, municipality_fr, municipality_de, count(*)::integer as addresses,
              ${f}(concat_ws(' ', zipcode, postname_nl, postname_fr, municipality_nl, municipality_fr, municipality_de)) as search
       from ${t('address')} where zipcode is not null
       group by zipcode, postname_nl, postname_fr, municipality_nl, municipality_fr, municipality_de`,
    `create index on ${t('postal_code')} (zipcode)`,
  ],
  postgresDerivedTables: ['street', 'address_search', 'house_term', 'postal_code'],
};
