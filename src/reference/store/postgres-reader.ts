// Reads the PostgreSQL reference schemas. Every method is one statement (an enterprise
// with its names, addresses, contacts and activities is assembled by json_agg), so each
// answer comes from one snapshot, also when an import swaps schemas meanwhile. A schema
// that does not exist yet (nothing imported) reads as empty.
import { CompiledQuery } from 'kysely';
import type { DB } from '../../db/database.ts';
import type { SourceName } from '../reference-source.ts';
import { liveSchema, workingSchema } from './postgres-schemas.ts';
import { searchTiers, tsTier } from '../search-tiers.ts';
import type {
  AddressQuery,
  CodeLanguage,
  EnterpriseQuery,
  EnterpriseRows,
  EnterpriseSummaryRows,
  Page,
  ReferenceReader,
  Row,
  VersionQuery,
} from './reference-store.ts';

/**
 * The keys of a page over ranked tiers (search-tiers.ts) in one statement, so one
 * snapshot: each tier's match stops at the rows needed ($1), a row keeps its best tier.
 * `match(p)` is the statement selecting `key` for the tsquery in parameter p.
 */
function tieredKeys(key: string, tierParameters: readonly number[], match: (parameter: number) => string): string {
  const tiers = tierParameters.map(
    (parameter, index) =>
      `select ${key}, ${index + 1}::bigint * 1000000000 + row_number() over () as rank from (${match(parameter)} limit $1) t${index}`,
  );
  return `select ${key}, min(rank) as rank from (${tiers.join(' union all ')}) tiers group by ${key} order by rank limit $2 offset $3`;
}

const SUMMARY = (s: string) => `e.*,
  (select description from ${s}.code c where c.category = 'JuridicalForm' and c.code = e.juridical_form
    order by c.language = $LANG desc, c.language = 'FR' desc limit 1) as juridical_form_description,
  coalesce((select json_agg(json_build_object('language', d.language, 'type', d.type, 'name', d.name) order by d.ctid)
    from ${s}.denomination d where d.number = e.number and d.type in ('001', '002')), '[]') as names,
  (select row_to_json(a) from ${s}.address a where a.number = e.number and a.type = 'REGO' limit 1) as address`;

export class PostgresReferenceReader implements ReferenceReader {
  readonly #db: DB;
  #base: Promise<string> | undefined;

  constructor(db: DB) {
    this.#db = db;
  }

  async #query(source: SourceName, text: (schema: string) => string, parameters: readonly unknown[]): Promise<Row[]> {
    this.#base ??= workingSchema(this.#db);
    const schema = `"${liveSchema(await this.#base, source)}"`;
    try {
      const result = await this.#db.executeQuery<Row>(CompiledQuery.raw(text(schema), [...parameters]));
      return result.rows;
    } catch (error) {
      // Not imported yet: no schema (3F000) or no table (42P01).
      if (['3F000', '42P01'].includes((error as { code?: string }).code ?? '')) return [];
      throw error;
    }
  }

  async enterprise(number: number, language: CodeLanguage): Promise<EnterpriseRows | undefined> {
    const [found] = await this.#query(
      'enterprises',
      (s) => `select ${SUMMARY(s).replaceAll('$LANG', '$2')},
        coalesce((select json_agg(json_build_object('language', d.language, 'type', d.type, 'name', d.name) order by d.ctid)
          from ${s}.denomination d where d.number = e.number), '[]') as all_names,
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
      from ${s}.enterprise e where e.number = $1`,
      [number, language],
    );
    if (!found) return undefined;
    const {
      names: _summaryNames,
      all_names,
      address,
      addresses,
      contacts,
      activities,
      establishment_count,
      ...enterprise
    } = found;
    return {
      enterprise,
      names: all_names as Row[],
      address: address as Row | undefined,
      addresses: addresses as Row[],
      contacts: contacts as Row[],
      activities: activities as Row[],
      establishment_count: Number(establishment_count),
    };
  }

  async searchEnterprises(query: EnterpriseQuery, language: CodeLanguage): Promise<EnterpriseSummaryRows[]> {
    // $1 rows per tier, $2 limit, $3 offset, $4 language, then the tiers' queries, then the zipcode.
    const parameters: unknown[] = [query.offset + query.limit, query.limit, query.offset, language];
    let matches: (s: string) => string;
    if (query.numberRanges) {
      const ranges = query.numberRanges
        .map(([low, high]) => `number between ${Math.trunc(low)} and ${Math.trunc(high)}`)
        .join(' or ');
      const zip = query.zipcode
        ? `and exists (select 1 from $S.address a where a.number = x.number and a.type = 'REGO' and a.zipcode = $5)`
        : '';
      // $1 (rows per tier) has no use here, but every parameter needs a type.
      matches = (s) =>
        `select number, number as rank from ${s}.enterprise x where $1::integer > 0 and (${ranges}) ${zip.replace('$S', s)} order by number limit $2 offset $3`;
    } else {
      const tierParameters = searchTiers(query.words ?? []).map((tier) => parameters.push(tsTier(tier)));
      const zip = query.zipcode ? `and zipcode = $${parameters.length + 1}` : '';
      matches = (s) =>
        tieredKeys(
          'number',
          tierParameters,
          (p) => `select number from ${s}.enterprise_search where doc @@ to_tsquery('simple', $${p}) ${zip}`,
        );
    }
    if (query.zipcode) parameters.push(query.zipcode);
    const found = await this.#query(
      'enterprises',
      (s) => `select ${SUMMARY(s).replaceAll('$LANG', '$4')}
      from (${matches(s)}) m join ${s}.enterprise e on e.number = m.number order by m.rank`,
      parameters,
    );
    return found.map(({ names, address, ...enterprise }) => ({
      enterprise,
      names: names as Row[],
      address: (address ?? undefined) as Row | undefined,
    }));
  }

  async address(id: string): Promise<Row | undefined> {
    return (await this.#query('addresses', (s) => `select * from ${s}.address where id = $1 limit 1`, [id]))[0];
  }

  async searchAddresses(query: AddressQuery): Promise<Row[]> {
    // $1 rows per tier, $2 limit, $3 offset, then the tiers' queries, then the filters.
    const parameters: unknown[] = [query.offset + query.limit, query.limit, query.offset];
    const tierParameters = searchTiers(query.words).map((tier) => parameters.push(tsTier(tier)));
    const filters: string[] = [];
    if (query.zipcode) filters.push(`and zipcode = $${parameters.push(query.zipcode)}`);
    if (query.municipality?.length) {
      filters.push(
        `and place @@ to_tsquery('simple', $${parameters.push(query.municipality.map((word) => `${word}:*`).join(' & '))})`,
      );
    }
    return this.#query(
      'addresses',
      (s) => `select a.* from
        (${tieredKeys('seq', tierParameters, (p) => `select seq from ${s}.address_search where doc @@ to_tsquery('simple', $${p}) ${filters.join(' ')}`)}) m
      join ${s}.address a on a.seq = m.seq order by m.rank`,
      parameters,
    );
  }

  async postalCodes(words: readonly string[], page: Page): Promise<Row[]> {
    const where = words.map((_, i) => `(' ' || search) like '% ' || $${i + 3} || '%'`).join(' and ') || 'true';
    return this.#query(
      'addresses',
      (s) => `select * from ${s}.postal_code where ${where}
      order by zipcode, postname_nl, postname_fr limit $1 offset $2`,
      [page.limit, page.offset, ...words.map(escapeLike)],
    );
  }

  async brands(page: Page): Promise<Row[]> {
    return this.#query('vehicles', (s) => `select name, versions from ${s}.brand order by name limit $1 offset $2`, [
      page.limit,
      page.offset,
    ]);
  }

  async models(brand: string, page: Page): Promise<Row[] | undefined> {
    const found = await this.#query(
      'vehicles',
      (s) => `select m.name, m.versions from ${s}.brand b
        left join lateral (select name, versions from ${s}.model where brand = b.name order by name limit $2 offset $3) m on true
      where b.name = $1`,
      [brand, page.limit, page.offset],
    );
    return found.length === 0 ? undefined : found.filter((model) => model.name !== null);
  }

  async versions(query: VersionQuery): Promise<Row[]> {
    // $1 rows per tier, $2 limit, $3 offset, then the tiers' queries and the filters.
    const parameters: unknown[] = [query.offset + query.limit, query.limit, query.offset];
    const tierParameters = query.words?.length
      ? searchTiers(query.words).map((tier) => parameters.push(tsTier(tier)))
      : [];
    const where: string[] = ['$1::integer > 0'];
    for (const [column, value] of [
      ['brand', query.brand],
      ['model', query.model],
      ['fuel', query.fuel],
    ] as const) {
      if (value !== undefined) where.push(`${column} = $${parameters.push(value)}`);
    }
    if (query.year !== undefined) where.push(`years::jsonb @> to_jsonb($${parameters.push(query.year)}::integer)`);
    // seq is the popularity order (most registrations first, sources/eea.ts).
    if (tierParameters.length === 0) {
      return this.#query(
        'vehicles',
        (s) => `select * from ${s}.version where ${where.join(' and ')} order by seq limit $2 offset $3`,
        parameters,
      );
    }
    return this.#query(
      'vehicles',
      (s) => `select v.* from
        (${tieredKeys('seq', tierParameters, (p) => `select seq from ${s}.version where doc @@ to_tsquery('simple', $${p}) and ${where.join(' and ')} order by seq`)}) m
      join ${s}.version v on v.seq = m.seq order by m.rank`,
      parameters,
    );
  }

  async version(id: string): Promise<Row | undefined> {
    return (await this.#query('vehicles', (s) => `select * from ${s}.version where id = $1`, [id]))[0];
  }

  async brandOf(candidates: readonly string[]): Promise<string | undefined> {
    if (candidates.length === 0) return undefined;
    const [found] = await this.#query(
      'vehicles',
      (s) => `select name from ${s}.brand where name = any($1) order by versions desc limit 1`,
      [candidates],
    );
    return found?.name as string | undefined;
  }
}

/** Words are letters and digits, but `_` and `%` must never act as wildcards. */
function escapeLike(word: string): string {
  return word.replace(/[\\%_]/g, (c) => `\\${c}`);
}
