// What a vehicle import builds once its rows are in (store/staging.ts): the versions summed
// from the windows eea.ts staged, brands and models, and a search over the versions.
import { serial, words } from '../search/postgres-documents.repository.ts';
import { FTS, longTerms } from '../search/sqlite-fts.repository.ts';
import type { DataSetIndexes } from '../store/staging.ts';

export const vehicleIndexes: DataSetIndexes = {
  sqlite: [
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
  postgres: (t, f) => [
    // The windows of eea.ts summed, as on SQLite above; array_to_json writes the years
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
  postgresDerivedTables: ['brand', 'model'],
};
