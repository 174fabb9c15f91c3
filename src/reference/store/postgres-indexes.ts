// What a PostgreSQL reference schema gets once its rows are in: lookup indexes and the
// search tables, a tsvector per row over the 'simple' configuration of folded text (so no
// stemming and no extension: prefixes of any word match, accents never matter) with a
// GIN index. Statements take the staging schema's quoted name.
import type { SourceName } from '../reference-source.ts';

export const POSTGRES_FINISH: Readonly<Record<SourceName, (s: string) => readonly string[]>> = {
  enterprises: (s) => [
    `create index on ${s}.code (category, code, language)`,
    `create index on ${s}.denomination (number)`,
    `create index on ${s}.address (number)`,
    `create index on ${s}.contact (number)`,
    `create index on ${s}.activity (number)`,
    `create index on ${s}.establishment (number)`,
    `create table ${s}.enterprise_search as
       select e.number,
              to_tsvector('simple', ${s}.fold(coalesce((select string_agg(d.name, ' ') from ${s}.denomination d where d.number = e.number), ''))) as doc,
              (select a.zipcode from ${s}.address a where a.number = e.number and a.type = 'REGO' limit 1) as zipcode
       from ${s}.enterprise e`,
    `alter table ${s}.enterprise_search add primary key (number)`,
    `create index on ${s}.enterprise_search using gin (doc)`,
    `create index on ${s}.enterprise_search (zipcode)`,
  ],
  addresses: (s) => [
    `create index on ${s}.address (id)`,
    `create table ${s}.address_search as
       select seq,
              setweight(to_tsvector('simple', ${s}.fold(concat_ws(' ', street_nl, street_fr, street_de))), 'A')
              || setweight(to_tsvector('simple', ${s}.fold(concat_ws(' ', housenr, boxnr))), 'B')
              || to_tsvector('simple', ${s}.fold(concat_ws(' ', zipcode, municipality_nl, municipality_fr, municipality_de, postname_nl, postname_fr))) as doc,
              zipcode,
              to_tsvector('simple', ${s}.fold(concat_ws(' ', municipality_nl, municipality_fr, municipality_de, postname_nl, postname_fr))) as place
       from ${s}.address`,
    `alter table ${s}.address_search add primary key (seq)`,
    `create index on ${s}.address_search using gin (doc)`,
    `create table ${s}.postal_code as
       select zipcode, postname_nl, postname_fr, municipality_nl, municipality_fr, municipality_de, count(*)::integer as addresses,
              ${s}.fold(concat_ws(' ', zipcode, postname_nl, postname_fr, municipality_nl, municipality_fr, municipality_de)) as search
       from ${s}.address where zipcode is not null
       group by zipcode, postname_nl, postname_fr, municipality_nl, municipality_fr, municipality_de`,
    `create index on ${s}.postal_code (zipcode)`,
  ],
  vehicles: (s) => [
    `create unique index on ${s}.version (id)`,
    `create index on ${s}.version (brand, model, registrations desc)`,
    `create table ${s}.brand as select brand as name, count(*)::integer as versions from ${s}.version group by brand`,
    `create table ${s}.model as select brand, model as name, count(*)::integer as versions from ${s}.version group by brand, model`,
    `create index on ${s}.model (brand, name)`,
    `alter table ${s}.version add column doc tsvector`,
    `update ${s}.version set doc = setweight(to_tsvector('simple', ${s}.fold(concat_ws(' ', brand, model))), 'A')
       || to_tsvector('simple', ${s}.fold(concat_ws(' ', type, variant, version, fuel, fuel_mode)))`,
    `create index on ${s}.version using gin (doc)`,
  ],
};
