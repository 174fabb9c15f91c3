// Enterprises from their PostgreSQL reference schema. Every method is one statement (an
// enterprise with its names, addresses, contacts and activities is assembled by json_agg),
// so each answer comes from one snapshot, also when an import swaps schemas meanwhile.
import { escapeLiteral } from 'pg';
import { searchTiersOf, tieredKeys } from '../search/postgres-tiers.repository.ts';
import type { ReferenceSchemas } from '../store/reference-schemas.repository.ts';
import type { Row } from '../store/rows.ts';
import type {
  CodeLanguage,
  EnterpriseQuery,
  EnterpriseReader,
  EnterpriseRows,
  EnterpriseSummaryRows,
} from './enterprise-reader.ts';

// Every denomination, in the detail's order: the name a summary shows is chosen from the same
// rows as the detail's (an enterprise may have only a commercial name, 003).
const SUMMARY = (s: string) => `e.*,
  (select description from ${s}.code c where c.category = 'JuridicalForm' and c.code = e.juridical_form
    order by c.language = $LANG desc, c.language = 'FR' desc limit 1) as juridical_form_description,
  coalesce((select json_agg(json_build_object('language', d.language, 'type', d.type, 'name', d.name) order by d.ctid)
    from ${s}.denomination d where d.number = e.number), '[]') as names,
  (select row_to_json(a) from ${s}.address a where a.number = e.number and a.type = 'REGO' limit 1) as address`;

export class PostgresEnterpriseReader implements EnterpriseReader {
  readonly #schemas: ReferenceSchemas;

  constructor(schemas: ReferenceSchemas) {
    this.#schemas = schemas;
  }

  async enterprise(number: number, language: CodeLanguage): Promise<EnterpriseRows | undefined> {
    const [found] = await this.#schemas.query(
      'enterprises',
      (s) => `select ${SUMMARY(s).replaceAll('$LANG', '$2')},
        coalesce((select json_agg(a order by a.ctid) from ${s}.address a where a.number = e.number), '[]') as addresses,
        coalesce((select json_agg(json_build_object('type', c.type, 'value', c.value) order by c.ctid)
          from ${s}.contact c where c.number = e.number), '[]') as contacts,
        coalesce((select json_agg(json_build_object('nace_version', a.nace_version, 'nace_code', a.nace_code,
            'classification', a.classification, 'description',
            (select description from ${s}.code c where c.category = 'Nace' || a.nace_version and c.code = a.nace_code
              order by c.language = $2 desc, c.language = 'FR' desc limit 1))
          order by a.classification = 'MAIN' desc, a.nace_version desc, a.ctid)
          from ${s}.activity a where a.number = e.number), '[]') as activities,
        (select count(*)::integer from ${s}.establishment x where x.number = e.number) as establishment_count
      from ${s}.enterprise e where e.number = $1::bigint`,
      [number, language],
    );
    if (!found) return undefined;
    const { names, address, addresses, contacts, activities, establishment_count, ...enterprise } = found;
    return {
      enterprise,
      names: names as Row[],
      address: address as Row | undefined,
      addresses: addresses as Row[],
      contacts: contacts as Row[],
      activities: activities as Row[],
      establishment_count: Number(establishment_count),
    };
  }

  async searchEnterprises(query: EnterpriseQuery, language: CodeLanguage): Promise<EnterpriseSummaryRows[]> {
    let matches: (s: string) => string;
    if (query.numberRanges) {
      const ranges = query.numberRanges
        .map(([low, high]) => `number between ${Math.trunc(low)} and ${Math.trunc(high)}`)
        .join(' or ');
      const zip = query.zipcode
        ? `and exists (select 1 from $S.address a where a.number = x.number and a.type = 'REGO' and a.zipcode = ${escapeLiteral(query.zipcode)})`
        : '';
      matches = (s) =>
        `select number, 1 as tier from ${s}.enterprise x where (${ranges}) ${zip.replace('$S', s)}
        order by number limit ${query.limit} offset ${query.offset}`;
    } else {
      const zip = query.zipcode ? `and zipcode = ${escapeLiteral(query.zipcode)}` : '';
      const frequencies = await this.#schemas.termFrequencies('enterprises', 'enterprise_search');
      const conditions = searchTiersOf(query.words ?? [], frequencies, query, zip);
      matches = (s) => tieredKeys('number', `${s}.enterprise_search`, conditions, query);
    }
    const found = await this.#schemas.query(
      'enterprises',
      (s) => `select ${SUMMARY(s).replaceAll('$LANG', escapeLiteral(language))}
      from (${matches(s)}) m join ${s}.enterprise e on e.number = m.number order by m.tier, m.number`,
      [],
    );
    return found.map(({ names, address, ...enterprise }) => ({
      enterprise,
      names: names as Row[],
      address: (address ?? undefined) as Row | undefined,
    }));
  }
}
