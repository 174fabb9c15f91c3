// What an enterprise import builds once its rows are in (store/staging.ts): lookups by
// number and a search over the names, with the registered office's postal code.
import { serial, words } from '../search/postgres-documents.repository.ts';
import { FTS, longTerms } from '../search/sqlite-fts.repository.ts';
import type { DataSetIndexes } from '../store/staging.ts';

export const enterpriseIndexes: DataSetIndexes = {
  sqlite: [
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
  postgres: (t, f) => [
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
  postgresDerivedTables: ['enterprise_search'],
};
