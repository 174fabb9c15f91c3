// What a SQLite reference file gets once its rows are in: lookup indexes, the FTS5 search
// tables (contentless, diacritics folded by the unicode61 tokenizer, so "liege" finds
// "Liège") and the small derived tables. Prefix indexes for 1 to 8 characters: a prefix
// query without one merges the postings of every word with that prefix before the first
// row comes back; with one it reads a single list only as far as the page needs (measured
// 4-6x faster for "bakk* peet*" over 20k enterprises, for a fifth more index).
// Longer prefixes are searched as an OR of their whole terms (search-tiers.ts), which the
// `<table>_term` list of every longer indexed term gives.
import type { SourceName } from '../reference-source.ts';

/** The longest prefix FTS5 indexes; keep in step with `prefix=` below. */
export const LONGEST_INDEXED_PREFIX = 8;

const FTS = `content='', detail=column, tokenize='unicode61 remove_diacritics 2', prefix='1 2 3 4 5 6 7 8'`;

/** The terms of an FTS table longer than its prefix indexes reach, in order, for prefix lookups. */
const longTerms = (table: string) => [
  `create virtual table temp.${table}_vocab using fts5vocab(main, ${table}, 'row')`,
  `create table ${table}_term (term text primary key) without rowid`,
  `insert into ${table}_term select term from temp.${table}_vocab where length(term) > ${LONGEST_INDEXED_PREFIX}`,
  `drop table temp.${table}_vocab`,
];

/**
 * An address's text but its numbers, the key of its street: two addresses with the same key
 * have the same words but their house and box numbers, whatever the columns held.
 */
const STREET_KEY = `concat_ws(char(1), ${['street_nl', 'street_fr', 'street_de', 'zipcode', 'municipality_nl', 'municipality_fr', 'municipality_de', 'postname_nl', 'postname_fr'].join(', ')})`;

/**
 * The streets of the addresses (sqlite-streets.ts): one row per street in a postal area
 * (some 60 addresses each) searched as the addresses are, but for house and box numbers;
 * each street's addresses in key order with the words of their numbers (`spaced_words`,
 * sqlite-importer.ts: " 12 a "); and the words numbers hold, from the addresses' own index.
 */
const streets: readonly FinishStep[] = [
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

/**
 * A statement run over `table` in ranges of `rows` by its integer `key` (the statement's two
 * parameters: after, up to and including). A JavaScript function a statement calls
 * (`spaced_words`) keeps every call's values alive until the statement returns, so over six
 * million addresses in one statement the import's memory grew to 800 MB; in ranges it stays flat.
 */
export interface RangedStatement {
  readonly sql: string;
  readonly table: string;
  readonly key: string;
  readonly rows: number;
}

export type FinishStep = string | RangedStatement;

export const SQLITE_FINISH: Readonly<Record<SourceName, readonly FinishStep[]>> = {
  enterprises: [
    'create index code_key on code(category, code, language)',
    'create index denomination_number on denomination(number)',
    'create index address_number on address(number)',
    'create index contact_number on contact(number)',
    'create index activity_number on activity(number)',
    'create index establishment_number on establishment(number)',
    `create virtual table enterprise_search using fts5(names, zipcode, ${FTS})`,
    `insert into enterprise_search(rowid, names, zipcode)
       select e.number,
              (select group_concat(d.name, ' ') from denomination d where d.number = e.number),
              (select a.zipcode from address a where a.number = e.number and a.type = 'REGO' limit 1)
       from enterprise e`,
    `insert into enterprise_search(enterprise_search) values ('optimize')`,
    ...longTerms('enterprise_search'),
  ],
  addresses: [
    'create index address_id on address(id)',
    `create virtual table address_search using fts5(street, housenr, zipcode, place, ${FTS})`,
    `insert into address_search(rowid, street, housenr, zipcode, place)
       select seq, concat_ws(' ', street_nl, street_fr, street_de), concat_ws(' ', housenr, boxnr), zipcode,
              concat_ws(' ', municipality_nl, municipality_fr, municipality_de, postname_nl, postname_fr)
       from address`,
    `insert into address_search(address_search) values ('optimize')`,
    ...longTerms('address_search'),
    ...streets,
    `create table postal_code as
       select zipcode, postname_nl, postname_fr, municipality_nl, municipality_fr, municipality_de, count(*) as addresses,
              fold(concat_ws(' ', zipcode, postname_nl, postname_fr, municipality_nl, municipality_fr, municipality_de)) as search
       from address where zipcode is not null
       group by zipcode, postname_nl, postname_fr, municipality_nl, municipality_fr, municipality_de
       order by zipcode`,
  ],
  vehicles: [
    // The windows of eea.ts summed: a version's first sighting gives its row, the most
    // registered comes first (seq), ties in the order the files first showed them. With a
    // single min(), SQLite takes the other columns from the row holding the minimum. Each
    // of the statement's three sorts may hold cache_size in memory before it spills to
    // disk: a smaller cache for it keeps the import's peak memory down (600 -> 460 MB for
    // 3M rows), and it runs no slower.
    'pragma cache_size = -16384',
    `insert into version
       select s.id, s.brand, s.model, s.type, s.variant, s.version, s.fuel, s.fuel_mode, s.engine_cc, s.power_kw,
              s.mass_kg, s.co2_wltp, s.electric_range_km, r.years, r.registrations,
              row_number() over (order by r.registrations desc, s.first_seen)
       from (select id, brand, model, type, variant, version, fuel, fuel_mode, engine_cc, power_kw,
                    mass_kg, co2_wltp, electric_range_km, min(first_seen) as first_seen
             from sighting group by id) s
       join (select id, sum(registrations) as registrations,
                    json_group_array(distinct year order by year) filter (where year is not null) as years
             from registration group by id) r on r.id = s.id`,
    'pragma cache_size = -65536',
    'create unique index version_id on version(id)',
    'create index version_brand_model on version(brand, model, seq)',
    `create table brand as select brand as name, count(*) as versions from version group by brand order by brand`,
    `create table model as select brand, model as name, count(*) as versions from version group by brand, model order by brand, model`,
    'create index model_brand on model(brand, name)',
    `create virtual table version_search using fts5(brand, model, detail, ${FTS})`,
    `insert into version_search(rowid, brand, model, detail)
       select seq, brand, model, concat_ws(' ', type, variant, version, fuel, fuel_mode) from version`,
    ...longTerms('version_search'),
  ],
};
