// What a PostgreSQL reference schema gets once its rows are in: lookup indexes and the
// search tables, a tsvector per row over the 'simple' configuration of folded text (so no
// stemming and no extension: prefixes of any word match, accents never matter) with a
// GIN index. Statements name staging tables through `t` (`"schema"."address__s1a2b3c"`)
// and the schema's fold() through `f`.
import type { SourceName } from '../reference-source.ts';

/** Tables the statements below derive from the imported ones: swapped in with them. */
export const DERIVED_TABLES: Readonly<Record<SourceName, readonly string[]>> = {
  enterprises: ['enterprise_search'],
  addresses: ['address_search', 'postal_code'],
  vehicles: ['brand', 'model'],
};

type Names = (table: string) => string;

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
  ],
  addresses: (t, f) => [
    `create index on ${t('address')} (id)`,
    `create table ${t('address_search')} as
       select seq,
              setweight(${words(f, `concat_ws(' ', street_nl, street_fr, street_de)`)}, 'A')
              || setweight(${words(f, `concat_ws(' ', housenr, boxnr)`)}, 'B')
              || ${words(f, `concat_ws(' ', zipcode, municipality_nl, municipality_fr, municipality_de, postname_nl, postname_fr)`)} as doc,
              zipcode,
              ${words(f, `concat_ws(' ', municipality_nl, municipality_fr, municipality_de, postname_nl, postname_fr)`)} as place
       from ${t('address')}`,
    `alter table ${t('address_search')} add primary key (seq)`,
    `create index on ${t('address_search')} using gin (doc)`,
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
  ],
};
