// Reads the PostgreSQL reference schemas. Every method is one statement (an enterprise
// with its names, addresses, contacts and activities is assembled by json_agg), so each
// answer comes from one snapshot, also when an import swaps schemas meanwhile. A schema
// that does not exist yet (nothing imported) reads as empty.
import { CompiledQuery } from 'kysely';
import { escapeLiteral } from 'pg';
import type { DB } from '../../db/database.ts';
import type { SourceName } from '../reference-source.ts';
import { liveSchema, workingSchema } from './postgres-schemas.ts';
import { searchTiers, type Tier, tsTier } from '../search-tiers.ts';
import { MOST_STREETS } from './postgres-streets.ts';
import { streetWords } from '../street-words.ts';
import {
  ginCondition,
  NO_FREQUENCIES,
  probeRows,
  type TermFrequencies,
  termFrequencies,
} from './postgres-gin-words.ts';
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
 * snapshot. A GIN index cannot stop early: it gathers every match before the first row
 * comes back (50 ns a match here: "rue", in a third of all addresses, would cost 100 ms at
 * full scale). So a tier of frequent words first reads the first rows of `table` in key
 * order (as many as its words' statistics say it needs, probeRows) and keeps the matches:
 * a word that frequent fills the page from them in a millisecond or so. Only when they are
 * too few does the tier ask the index, and then its words are rare enough for that to be
 * cheap. A tier with a word rarer than the statistics list asks the index at once.
 * A tier runs only when each tier before found fewer rows than the page needs (tiers nest:
 * a row of one matches every later one). The counts are uncorrelated subqueries:
 * PostgreSQL evaluates each once and skips a scan whose condition is false.
 * The index query's limit is a subquery, unknown to the planner: with the number itself it
 * would expect the few matches it estimates to come early in a plain scan of the table and
 * choose that scan, which for a rare word reads all six million rows (760 ms instead of 7).
 * Rows are ranked by their first tier, then by key. `tiers` holds each tier's condition on
 * a row of `table` (ginCondition) and its probe's size.
 */
function tieredKeys(key: string, table: string, tiers: readonly SearchTier[], page: Page, streets?: string): string {
  // `streets`: the schema of an address search's streets and house words (postgres-streets.ts).
  const wanted = page.offset + page.limit;
  const ctes = tiers.flatMap(({ condition, probeRows, check, streetWords }, index) => {
    const tier = index + 1;
    const earlier =
      Array.from({ length: index }, (_, before) => `(select count(*) from t${before + 1}) < ${wanted}`).join(' and ') ||
      'true';
    const probed = probeRows > 0 ? `(select count(*) from p${tier})` : '0';
    const probe = `p${tier} as materialized (select ${key} from (select * from ${table} order by ${key} limit ${probeRows}) w
        where ${earlier} and ${probeRows} > 0 and ${condition} limit ${wanted})`;
    const unprobed = `${earlier} and ${probed} < ${wanted}`;
    const fromProbe = `select ${key}, ${tier} as tier from p${tier} where ${probed} >= ${wanted}`;
    const fromIndex = (when: string) => `select ${key}, ${tier} as tier from (select ${key} from ${table}
        where ${unprobed} ${when} and ${condition} limit (select ${wanted})) f`;
    if (streets === undefined || streetWords === undefined) {
      return [probe, `t${tier} as materialized (${fromProbe} union all ${fromIndex('')})`];
    }
    // postgres-streets.ts: the tier's streets first; when they are few, the first rows of
    // each in key order, else the addresses' own index as above.
    const streetCount = `(select count(*) from s${tier})`;
    const fromStreets = `select ${key}, ${tier} as tier from (select r.${key} from s${tier} cross join lateral
          (select ${key} from ${table} a where a.street = s${tier}.street and ${check} order by ${key} limit ${wanted}) r
        where ${unprobed} and ${streetCount} <= ${MOST_STREETS} order by r.${key} limit ${wanted}) g`;
    return [
      probe,
      // The words were told apart from house words as this server last read them; should an
      // import have changed those since, the statement sees it here and takes the index.
      `s${tier} as materialized (select street from ${streets}.street where ${unprobed}
        and doc @@ ${tsquery(tsTier(streetWords))}
        and not exists (select from ${streets}.house_term h where ${streetWords
          .map(({ word, prefix }) =>
            prefix ? `starts_with(h.term, ${escapeLiteral(word)})` : `h.term = ${escapeLiteral(word)}`,
          )
          .join(' or ')})
        limit ${MOST_STREETS + 1})`,
      `t${tier} as materialized (${fromProbe} union all ${fromStreets}
        union all ${fromIndex(`and ${streetCount} > ${MOST_STREETS}`)})`,
    ];
  });
  const all = tiers.map((_, index) => `select ${key}, tier from t${index + 1}`).join(' union all ');
  return `with ${ctes.join(', ')}
    select ${key}, min(tier) as tier from (${all}) tiers group by ${key}
    order by min(tier), ${key} limit ${page.limit} offset ${page.offset}`;
}

/**
 * A search's text, a tsquery of folded words (search-tiers.ts), goes into the statement as
 * a literal, and so do its filters: how many rows a word matches decides the plan, and a
 * parameter would get the one generic plan our connections use (database.ts), which took
 * 38 ms for "rue" in 660,000 addresses instead of 0.3 ms. Without parameters the statement
 * is planned with its values every time.
 */
interface SearchTier {
  readonly condition: string;
  readonly probeRows: number;
  /** The whole tier and the filters, checked on a row found by other means (a street's). */
  readonly check: string;
  /** Words every matching address's street holds, unless a house or box number does (postgres-streets.ts). */
  readonly streetWords?: Tier;
}

/** The tiers of a search over a GIN-indexed `doc`, each with `filters` (SQL after `and`). */
function searchTiersOf(
  words: readonly string[],
  frequencies: TermFrequencies,
  page: Page,
  filters: string,
  houseTerms?: readonly string[],
): SearchTier[] {
  return searchTiers(words).map((tier) => {
    const narrowing = houseTerms ? streetWords(tier, houseTerms) : [];
    return {
      condition: `${ginCondition('doc', tier, frequencies)} ${filters}`,
      probeRows: probeRows(tier, frequencies, page.offset + page.limit),
      check: `ts_match_vq(doc, ${tsquery(tsTier(tier))}) ${filters}`,
      ...(narrowing.length > 0 && { streetWords: narrowing }),
    };
  });
}

const tsquery = (text: string) => `to_tsquery('simple', ${escapeLiteral(text)})`;

/** How long a search's hints (statistics, house words) are used before they are read again. */
const HINTS_FOR_MS = 60_000;

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

  readonly #hints = new Map<string, { value: Promise<unknown>; read: number }>();

  /**
   * What a search plans with and reads once in a while, not per request: `read` runs again
   * once the value is a minute old, since an import swaps new tables into the same schema.
   * A hint only: a stale one makes a search slower, never its answer different.
   */
  async #hint<T>(source: SourceName, name: string, read: (schema: string) => Promise<T>): Promise<T> {
    this.#base ??= workingSchema(this.#db);
    const schema = liveSchema(await this.#base, source);
    const key = `${schema}.${name}`;
    let found = this.#hints.get(key);
    if (!found || performance.now() - found.read > HINTS_FOR_MS) {
      found = { value: read(schema), read: performance.now() };
      this.#hints.set(key, found);
    }
    return found.value as Promise<T>;
  }

  /** The planner's statistics of a search column (postgres-gin-words.ts). */
  #termFrequencies(source: SourceName, table: string): Promise<TermFrequencies> {
    return this.#hint(source, table, (schema) =>
      this.#db
        .executeQuery<{ elements: string[] | null; shares: number[] | null }>(
          CompiledQuery.raw(
            `select most_common_elems::text::text[] as elements, most_common_elem_freqs as shares from pg_stats
            where schemaname = $1 and tablename = $2 and attname = 'doc'`,
            [schema, table],
          ),
        )
        .then(({ rows: [stats] }) => termFrequencies(stats?.elements ?? null, stats?.shares ?? null))
        .catch(() => NO_FREQUENCIES),
    );
  }

  /**
   * The words of house and box numbers (postgres-streets.ts), sorted; the search statement
   * checks its street words against the current ones all the same. Undefined for a schema
   * imported before streets were kept: searched without them.
   */
  #houseTerms(): Promise<string[] | undefined> {
    return this.#hint('addresses', 'house_term', (schema) =>
      this.#db
        .executeQuery<{ term: string }>(CompiledQuery.raw(`select term from "${schema}".house_term`))
        .then(({ rows }) => rows.map(({ term }) => term).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)))
        .catch(() => undefined),
    );
  }

  // The number is compared as bigint: the column is an integer, and a ten-digit number past
  // 2^31 that passes its check (2243.496.172) names nothing rather than failing the statement.
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
      from ${s}.enterprise e where e.number = $1::bigint`,
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
      const frequencies = await this.#termFrequencies('enterprises', 'enterprise_search');
      const conditions = searchTiersOf(query.words ?? [], frequencies, query, zip);
      matches = (s) => tieredKeys('number', `${s}.enterprise_search`, conditions, query);
    }
    const found = await this.#query(
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

  async address(id: string): Promise<Row | undefined> {
    return (await this.#query('addresses', (s) => `select * from ${s}.address where id = $1 limit 1`, [id]))[0];
  }

  async searchAddresses(query: AddressQuery): Promise<Row[]> {
    const filters: string[] = [];
    if (query.zipcode) filters.push(`and zipcode = ${escapeLiteral(query.zipcode)}`);
    if (query.municipality?.length) {
      filters.push(`and place @@ ${tsquery(query.municipality.map((word) => `${word}:*`).join(' & '))}`);
    }
    const frequencies = await this.#termFrequencies('addresses', 'address_search');
    const houseTerms = await this.#houseTerms();
    const conditions = searchTiersOf(query.words, frequencies, query, filters.join(' '), houseTerms);
    return this.#query(
      'addresses',
      (s) => `select a.* from
        (${tieredKeys('seq', `${s}.address_search`, conditions, query, houseTerms && s)}) m
      join ${s}.address a on a.seq = m.seq order by m.tier, m.seq`,
      [],
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
    const where: string[] = ['true'];
    for (const [column, value] of [
      ['brand', query.brand],
      ['model', query.model],
      ['fuel', query.fuel],
    ] as const) {
      if (value !== undefined) where.push(`${column} = ${escapeLiteral(value)}`);
    }
    if (query.year !== undefined) where.push(`years::jsonb @> to_jsonb(${Math.trunc(query.year)})`);
    // seq is the popularity order (most registrations first, sources/eea.ts).
    const words = query.words ?? [];
    if (words.length === 0) {
      return this.#query(
        'vehicles',
        (s) =>
          `select * from ${s}.version where ${where.join(' and ')} order by seq limit ${query.limit} offset ${query.offset}`,
        [],
      );
    }
    const frequencies = await this.#termFrequencies('vehicles', 'version');
    const conditions = searchTiersOf(words, frequencies, query, `and ${where.join(' and ')}`);
    return this.#query(
      'vehicles',
      (s) => `select v.* from
        (${tieredKeys('seq', `${s}.version`, conditions, query)}) m
      join ${s}.version v on v.seq = m.seq order by m.tier, m.seq`,
      [],
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
