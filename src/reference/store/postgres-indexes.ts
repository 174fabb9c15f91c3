// What a PostgreSQL reference schema gets once its rows are in: lookup indexes and the
// search tables, a tsvector per row over the 'simple' configuration of folded text (so no
// stemming and no extension: prefixes of any word match, accents never matter) with a
// GIN index. Statements name staging tables through `t` (`"schema"."address__s1a2b3c"`)
// and the schema's fold() through `f`.
import type { SourceName } from '../reference-source.ts';

/** Tables the statements below derive from the imported ones: swapped in with them. */
export const DERIVED_TABLES: Readonly<Record<SourceName, readonly string[]>> = {
  enterprises: ['enterprise_search'],
  addresses: ['street', 'address_search', 'house_term', 'postal_code'],
  vehicles: ['brand', 'model'],
};

type Names = (table: string) => string;

/**
 * A search reads a page and stops; the planner, estimating its tiers large, would share
 * them out to parallel workers, and starting those cost more than the search (a typing
 * search's p99 142 -> 43 ms at full scale without them).
 */
const serial = (table: string) => `alter table ${table} set (parallel_workers = 0)`;

/**
 * An address's text but its numbers, the key of its street (see `street` below). Two
 * addresses with the same key have the same words, whatever the columns held: all a
 * search compares.
 */
const streetKey = (alias: string) =>
  `concat_ws(chr(1), ${['street_nl', 'street_fr', 'street_de', 'zipcode', 'municipality_nl', 'municipality_fr', 'municipality_de', 'postname_nl', 'postname_fr'].map((column) => alias + column).join(', ')})`;

/**
 * The words of a text as search-text.ts splits a query: runs of letters and digits,
 * folded. Left to itself, PostgreSQL's parser keeps "petrol/electric" whole as a file
 * path and "id.3" as a host name, and a search for "petrol" would never find them.
 */
const words = (f: string, text: string) =>
  `to_tsvector('simple', regexp_replace(${f}(${text}), '[^[:alnum:]]+', ' ', 'g'))`;

export const POSTGRES_FINISH: Readonly<Record<SourceName, (t: Names, f: string) => readonly string[]>> = {
  enterprises: (t, f) => [
    `create index on ${t('code')} (category, code, language)`,
    `create index on ${t('denomination')} (number)`,
    `create index on ${t('address')} (number)`,
    `create index on ${t('contact')} (number)`,
    `create index on ${t('activity')} (number)`,
    `create index on ${t('establishment')} (number)`,
    `create table ${t('enterprise_search')} as
       select e.number,
              ${words(f, `coalesce((select string_agg(d.name, ' ') from ${t('denomination')} d where d.number = e.number), '')`)} as doc,
              (select a.zipcode from ${t('address')} a where a.number = e.number and a.type = 'REGO' limit 1) as zipcode
       from ${t('enterprise')} e`,
    `alter table ${t('enterprise_search')} add primary key (number)`,
    `create index on ${t('enterprise_search')} using gin (doc)`,
    `create index on ${t('enterprise_search')} (zipcode)`,
    serial(t('enterprise_search')),
  ],
  addresses: (t, f) => [
    `create index on ${t('address')} (id)`,
    // A street in one postal area: what an address's words are but its house and box
    // numbers, some 60 addresses each. Searching these first finds the few streets a
    // query of frequent words names (postgres-streets.ts).
    `create table ${t('street')} as
       select row_number() over (order by key)::integer as street, key,
              setweight(${words(f, `concat_ws(' ', street_nl, street_fr, street_de)`)}, 'A')
              || ${words(f, `concat_ws(' ', zipcode, municipality_nl, municipality_fr, municipality_de, postname_nl, postname_fr)`)} as doc
       from (select distinct on (key) ${streetKey('')} as key, * from ${t('address')} order by key) s`,
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
       from ${t('address')} a join ${t('street')} s on s.key = ${streetKey('a.')}
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
  vehicles: (t, f) => [
    // The windows of eea.ts summed, as in sqlite-indexes.ts; array_to_json writes the years
    // as SQLite's json_group_array does, without spaces.
    `insert into ${t('version')}
       select s.id, s.brand, s.model, s.type, s.variant, s.version, s.fuel, s.fuel_mode, s.engine_cc, s.power_kw,
              s.mass_kg, s.co2_wltp, s.electric_range_km, r.years, r.registrations,
              row_number() over (order by r.registrations desc, s.first_seen)
       from (select distinct on (id) * from ${t('sighting')} order by id, first_seen) s
       join (select id, sum(registrations)::integer as registrations,
                    coalesce(array_to_json(array_agg(distinct year order by year) filter (where year is not null))::text, '[]') as years
             from ${t('registration')} group by id) r on r.id = s.id`,
    `create unique index on ${t('version')} (id)`,
    `create index on ${t('version')} (brand, model, seq)`,
    `create table ${t('brand')} as select brand as name, count(*)::integer as versions from ${t('version')} group by brand`,
    `create table ${t('model')} as select brand, model as name, count(*)::integer as versions from ${t('version')} group by brand, model`,
    `create index on ${t('model')} (brand, name)`,
    `alter table ${t('version')} add column doc tsvector`,
    `update ${t('version')} set doc = setweight(${words(f, `concat_ws(' ', brand, model)`)}, 'A')
       || ${words(f, `concat_ws(' ', type, variant, version, fuel, fuel_mode)`)}`,
    `create index on ${t('version')} using gin (doc)`,
    serial(t('version')),
  ],
};
