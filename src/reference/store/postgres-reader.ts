// Reads the PostgreSQL reference schemas. Every method is one statement (an enterprise
// with its names, addresses, contacts and activities is assembled by json_agg), so each
// answer comes from one snapshot, also when an import swaps schemas meanwhile. A schema
// that does not exist yet (nothing imported) reads as empty.
import { CompiledQuery } from 'kysely';
import type { DB } from '../../db/database.ts';
import type { SourceName } from '../reference-source.ts';
import { liveSchema, workingSchema } from './postgres-schemas.ts';
import type { AddressQuery, CodeLanguage, EnterpriseQuery, EnterpriseRows, EnterpriseSummaryRows, Page, ReferenceReader, Row, VersionQuery } from './reference-store.ts';

/** Each word a prefix, an exact word counting twice, so ts_rank puts "16" before "160". */
function tsQuery(words: readonly string[]): string {
  return words.map((word) => `(${word} | ${word}:*)`).join(' & ');
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
    const [found] = await this.#query('enterprises', (s) => `select ${SUMMARY(s).replaceAll('$LANG', '$2')},
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
      from ${s}.enterprise e where e.number = $1`, [number, language]);
    if (!found) return undefined;
    const { names: _summaryNames, all_names, address, addresses, contacts, activities, establishment_count, ...enterprise } = found;
    return {
      enterprise, names: all_names as Row[], address: address as Row | undefined,
      addresses: addresses as Row[], contacts: contacts as Row[], activities: activities as Row[],
      establishment_count: Number(establishment_count),
    };
  }

  async searchEnterprises(query: EnterpriseQuery, language: CodeLanguage): Promise<EnterpriseSummaryRows[]> {
    const parameters: unknown[] = [language, query.limit, query.offset];
    let matches: (s: string) => string;
    if (query.numberRanges) {
      const ranges = query.numberRanges.map(([low, high]) => `number between ${low} and ${high}`).join(' or ');
      const zip = query.zipcode ? `and exists (select 1 from ${'$S'}.address a where a.number = x.number and a.type = 'REGO' and a.zipcode = $4)` : '';
      matches = (s) => `select number, 0 as score from ${s}.enterprise x where (${ranges}) ${zip.replace('$S', s)} order by number limit $2 offset $3`;
    } else {
      parameters.push(tsQuery(query.words ?? []));
      const zip = query.zipcode ? 'and zipcode = $5' : '';
      matches = (s) => `select number, ts_rank(doc, q) as score from ${s}.enterprise_search, to_tsquery('simple', $4) q
        where doc @@ q ${zip} order by score desc, number limit $2 offset $3`;
    }
    if (query.zipcode) parameters.push(query.zipcode);
    const found = await this.#query('enterprises', (s) => `select ${SUMMARY(s).replaceAll('$LANG', '$1')}
      from (${matches(s)}) m join ${s}.enterprise e on e.number = m.number order by m.score desc, m.number`, parameters);
    return found.map(({ names, address, ...enterprise }) => ({ enterprise, names: names as Row[], address: (address ?? undefined) as Row | undefined }));
  }

  async address(id: string): Promise<Row | undefined> {
    return (await this.#query('addresses', (s) => `select * from ${s}.address where id = $1 limit 1`, [id]))[0];
  }

  async searchAddresses(query: AddressQuery): Promise<Row[]> {
    const parameters: unknown[] = [tsQuery(query.words), query.limit, query.offset];
    const filters: string[] = [];
    if (query.zipcode) filters.push(`and zipcode = $${parameters.push(query.zipcode)}`);
    if (query.municipality?.length) filters.push(`and place @@ to_tsquery('simple', $${parameters.push(tsQuery(query.municipality))})`);
    return this.#query('addresses', (s) => `select a.* from
        (select seq, ts_rank(doc, q) as score from ${s}.address_search, to_tsquery('simple', $1) q
         where doc @@ q ${filters.join(' ')} order by score desc, seq limit $2 offset $3) m
      join ${s}.address a on a.seq = m.seq order by m.score desc, m.seq`, parameters);
  }

  async postalCodes(words: readonly string[], page: Page): Promise<Row[]> {
    const where = words.map((_, i) => `(' ' || search) like '% ' || $${i + 3} || '%'`).join(' and ') || 'true';
    return this.#query('addresses', (s) => `select * from ${s}.postal_code where ${where}
      order by zipcode, postname_nl, postname_fr limit $1 offset $2`, [page.limit, page.offset, ...words.map(escapeLike)]);
  }

  async brands(page: Page): Promise<Row[]> {
    return this.#query('vehicles', (s) => `select name, versions from ${s}.brand order by name limit $1 offset $2`, [page.limit, page.offset]);
  }

  async models(brand: string, page: Page): Promise<Row[] | undefined> {
    const found = await this.#query('vehicles', (s) => `select m.name, m.versions from ${s}.brand b
        left join lateral (select name, versions from ${s}.model where brand = b.name order by name limit $2 offset $3) m on true
      where b.name = $1`, [brand, page.limit, page.offset]);
    return found.length === 0 ? undefined : found.filter((model) => model.name !== null);
  }

  async versions(query: VersionQuery): Promise<Row[]> {
    const parameters: unknown[] = [query.limit, query.offset];
    const where: string[] = [];
    let order = 'registrations desc, id';
    if (query.words?.length) {
      const at = parameters.push(tsQuery(query.words));
      where.push(`doc @@ to_tsquery('simple', $${at})`);
      order = `ts_rank(doc, to_tsquery('simple', $${at})) desc, ${order}`;
    }
    for (const [column, value] of [['brand', query.brand], ['model', query.model], ['fuel', query.fuel]] as const) {
      if (value !== undefined) where.push(`${column} = $${parameters.push(value)}`);
    }
    if (query.year !== undefined) where.push(`years::jsonb @> to_jsonb($${parameters.push(query.year)}::integer)`);
    return this.#query('vehicles', (s) => `select * from ${s}.version ${where.length ? `where ${where.join(' and ')}` : ''}
      order by ${order} limit $1 offset $2`, parameters);
  }

  async version(id: string): Promise<Row | undefined> {
    return (await this.#query('vehicles', (s) => `select * from ${s}.version where id = $1`, [id]))[0];
  }

  async brandOf(candidates: readonly string[]): Promise<string | undefined> {
    if (candidates.length === 0) return undefined;
    const [found] = await this.#query('vehicles', (s) => `select name from ${s}.brand where name = any($1) order by versions desc limit 1`, [candidates]);
    return found?.name as string | undefined;
  }
}

/** Words are letters and digits, but `_` and `%` must never act as wildcards. */
function escapeLike(word: string): string {
  return word.replace(/[\\%_]/g, (c) => `\\${c}`);
}
