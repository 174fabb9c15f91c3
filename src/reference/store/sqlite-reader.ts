// Reads the SQLite reference files, read-only, with prepared statements straight on
// node:sqlite (no query builder on the hot path). Each request takes the file's current
// handle once: an import renames a new file over the old one, a new handle is opened
// when the file's identity changes, and since every read here is synchronous a request
// sees one version of the data from its first statement to its last.
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import type { SourceName } from '../reference-source.ts';
import { ftsAllPrefixes, ftsTier, type PrefixTerms, searchTiers, type Tier } from '../search-tiers.ts';
import { LONGEST_INDEXED_PREFIX } from './sqlite-indexes.ts';
import { liveFile } from './sqlite-files.ts';
import { row, rows, type Statements } from './sqlite-statements.ts';
import { houseTerms, streetTier } from './sqlite-streets.ts';
import { StatementCache } from '../../db/statement-cache.ts';
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
 * Statements kept per reference file. Some texts are built per query (a condition per word,
 * a placeholder per candidate), so without a bound the cache would grow with the queries
 * asked; the fixed texts of all three files are fewer than this.
 */
export const REFERENCE_STATEMENT_CACHE_SIZE = 200;

function statementCache(db: DatabaseSync | undefined): StatementCache<StatementSync> {
  return new StatementCache(REFERENCE_STATEMENT_CACHE_SIZE, (sql) => {
    if (!db) throw new Error('no reference file is open');
    return db.prepare(sql);
  });
}

class ReferenceFile {
  readonly #path: string;
  #db: DatabaseSync | undefined;
  #identity = '';
  #statements = statementCache(undefined);
  #derived = new Map<string, unknown>();

  constructor(path: string) {
    this.#path = path;
  }

  /**
   * The current file's statements, for one request: the file's identity is checked once,
   * so every statement of the request reads the same file even if an import renames a new
   * one into place meanwhile. Undefined statements while nothing was imported.
   */
  snapshot(): (sql: string) => StatementSync | undefined {
    const stat = fs.statSync(this.#path, { throwIfNoEntry: false });
    const identity = stat ? `${stat.dev}:${stat.ino}:${stat.mtimeMs}` : '';
    if (identity !== this.#identity) this.#reopen(identity);
    const db = this.#db;
    const statements = this.#statements;
    return (sql) => (db ? statements.get(sql) : undefined);
  }

  /**
   * What requests derive from the current file, read once for all of them (a live file is
   * never written). `statement` is the request's snapshot, taken in the same synchronous
   * run, so it reads the handle this is kept for.
   */
  derived<T>(name: string, statement: Statements, read: (statement: Statements) => T): T {
    if (!this.#derived.has(name)) this.#derived.set(name, read(statement));
    return this.#derived.get(name) as T;
  }

  /** Prepared statements kept for the file open now. */
  get cachedStatements(): number {
    return this.#statements.size;
  }

  #reopen(identity: string): void {
    // Reads are synchronous, so no request is between two statements of the old file now.
    this.#derived = new Map();
    this.#db?.close();
    // A live file is never written: an import builds a new one and renames it over this
    // path (sqlite-files.ts), and this handle keeps the file it opened. So it is opened
    // immutable: SQLite then takes no file locks and checks for no other writer, where a
    // plain read-only handle pays some ten system calls per statement for both (an
    // enterprise lookup is six statements: 99 -> 40 µs).
    const immutable = pathToFileURL(this.#path);
    immutable.searchParams.set('immutable', '1');
    this.#db = identity ? new DatabaseSync(immutable, { readOnly: true }) : undefined;
    // Pages straight from the OS page cache through a memory map, not a read() call each:
    // a search touches hundreds of pages, and a system call costs microseconds here.
    this.#db?.exec('pragma mmap_size = 17179869184');
    // The statements of the file open now, dropped with it.
    this.#statements = statementCache(this.#db);
    this.#identity = identity;
  }

  close(): void {
    this.#reopen('');
  }
}

/**
 * The rows of a page over ranked tiers (search-tiers.ts): each tier's match stops at the
 * rows needed so far, rows an earlier tier found are skipped. A tier is one statement
 * returning whole rows, not one statement a row: a page of addresses read row by row spent
 * more in the calls than in the search. `run` gives a tier's first `wanted` rows.
 */
function tiered(tiers: readonly Tier[], run: (tier: Tier, wanted: number) => Row[], page: Page, key: string): Row[] {
  if (tiers.length === 0) return [];
  const wanted = page.offset + page.limit;
  const seen = new Set<unknown>();
  const found: Row[] = [];
  const add = (hits: readonly Row[]): void => {
    for (const hit of hits) {
      if (seen.has(hit[key])) continue;
      seen.add(hit[key]);
      found.push(hit);
    }
  };
  const first = run(tiers[0]!, wanted);
  add(first);
  if (tiers.length === 3 && first.length > 0 && first.length < wanted) {
    // The three tiers nest (search-tiers.ts: a row of one matches every later one). When
    // the first finds some rows but not a page, as a precise address does ("rue de la
    // station 24 schaerbeek"), the broadest runs next: if it finds no more rows than the
    // first, and not a page, the middle one can only find those same rows and is left out,
    // a third of the search saved. When the first finds nothing, a word is being typed and
    // the middle tier usually fills the page alone: the tiers run in order.
    const broadest = run(tiers[2]!, wanted);
    if (broadest.length >= wanted || broadest.length > first.length) add(run(tiers[1]!, wanted));
    add(broadest);
  } else {
    for (const tier of tiers.slice(1)) {
      if (found.length >= wanted) break;
      add(run(tier, wanted));
    }
  }
  return found.slice(page.offset, wanted);
}

/** A tier run as one FTS5 MATCH: `statement` takes the match, then `filters`, then the number of rows wanted. */
const matching =
  (statement: StatementSync | undefined, match: (tier: Tier) => string, filters: readonly (string | number)[] = []) =>
  (tier: Tier, wanted: number) =>
    rows(statement, match(tier), ...filters, wanted);

/** More whole terms than this and a long prefix stays a prefix query: the OR would cost more. */
const MOST_PREFIX_TERMS = 64;

/** The whole terms of `table` that prefixes too long for its prefix indexes stand for (one request's). */
function prefixTerms(statement: Statements, table: string): PrefixTerms {
  const known = new Map<string, readonly string[] | undefined>();
  return (prefix) => {
    if (prefix.length <= LONGEST_INDEXED_PREFIX) return undefined;
    if (!known.has(prefix)) known.set(prefix, lookUp(prefix));
    return known.get(prefix);
  };
  function lookUp(prefix: string): readonly string[] | undefined {
    let list: StatementSync | undefined;
    try {
      list = statement(`select term from ${table}_term where term >= ? order by term limit ${MOST_PREFIX_TERMS + 1}`);
    } catch {
      return undefined; // a file imported before term lists were kept
    }
    const terms: string[] = [];
    for (const { term } of rows(list, prefix)) {
      if (!String(term).startsWith(prefix)) break;
      terms.push(String(term));
    }
    return terms.length > MOST_PREFIX_TERMS ? undefined : terms;
  }
}

const JURIDICAL_FORM = `(select description from code c where c.category = 'JuridicalForm' and c.code = e.juridical_form
  order by c.language = ? desc, c.language = 'FR' desc limit 1) as juridical_form_description`;

export class SqliteReferenceReader implements ReferenceReader {
  readonly #files: Record<SourceName, ReferenceFile>;

  constructor(dataDir: string) {
    this.#files = {
      enterprises: new ReferenceFile(liveFile(dataDir, 'enterprises')),
      addresses: new ReferenceFile(liveFile(dataDir, 'addresses')),
      vehicles: new ReferenceFile(liveFile(dataDir, 'vehicles')),
    };
  }

  close(): void {
    for (const file of Object.values(this.#files)) file.close();
  }

  /** Prepared statements kept now, per file (each at most REFERENCE_STATEMENT_CACHE_SIZE). */
  cachedStatements(): Record<SourceName, number> {
    return {
      enterprises: this.#files.enterprises.cachedStatements,
      addresses: this.#files.addresses.cachedStatements,
      vehicles: this.#files.vehicles.cachedStatements,
    };
  }

  async enterprise(number: number, language: CodeLanguage): Promise<EnterpriseRows | undefined> {
    const statement = this.#files.enterprises.snapshot();
    const enterprise = row(
      statement(`select e.*, ${JURIDICAL_FORM} from enterprise e where number = ?`),
      language,
      number,
    );
    if (!enterprise) return undefined;
    const names = rows(
      statement('select language, type, name from denomination where number = ? order by rowid'),
      number,
    );
    const addresses = rows(statement('select * from address where number = ? order by rowid'), number);
    return {
      enterprise,
      names,
      address: addresses.find((address) => address.type === 'REGO'),
      addresses,
      contacts: rows(statement('select type, value from contact where number = ? order by rowid'), number),
      activities: rows(
        statement(`select a.*, (select description from code c where c.category = 'Nace' || a.nace_version
          and c.code = a.nace_code order by c.language = ? desc, c.language = 'FR' desc limit 1) as description
        from activity a where number = ? order by a.classification = 'MAIN' desc, a.nace_version desc, a.rowid`),
        language,
        number,
      ),
      establishment_count: Number(
        row(statement('select count(*) as n from establishment where number = ?'), number)?.n ?? 0,
      ),
    };
  }

  async searchEnterprises(query: EnterpriseQuery, language: CodeLanguage): Promise<EnterpriseSummaryRows[]> {
    const statement = this.#files.enterprises.snapshot();
    let numbers: Row[];
    if (query.numberRanges) {
      const ranges = query.numberRanges.map(() => 'number between ? and ?').join(' or ');
      const zip = query.zipcode
        ? `and exists (select 1 from address a where a.number = e.number and a.type = 'REGO' and a.zipcode = ?)`
        : '';
      numbers = rows(
        statement(`select number from enterprise e where (${ranges}) ${zip} order by number limit ? offset ?`),
        ...query.numberRanges.flat(),
        ...(query.zipcode ? [query.zipcode] : []),
        query.limit,
        query.offset,
      );
    } else {
      const zip = query.zipcode ? ` AND zipcode : "${query.zipcode}"` : '';
      const terms = prefixTerms(statement, 'enterprise_search');
      numbers = tiered(
        searchTiers(query.words ?? []),
        matching(
          statement('select rowid as number from enterprise_search where enterprise_search match ? limit ?'),
          (tier) => ftsTier(tier, 'names', terms) + zip,
        ),
        query,
        'number',
      );
    }
    return this.#summaries(
      statement,
      numbers.map(({ number }) => Number(number)),
      language,
    );
  }

  /** The summaries of a page of enterprises, in the page's order: three statements a page, not three a row. */
  #summaries(statement: Statements, numbers: readonly number[], language: CodeLanguage): EnterpriseSummaryRows[] {
    if (numbers.length === 0) return [];
    const list = JSON.stringify(numbers);
    const page = 'json_each(?) j cross join';
    const names = Map.groupBy(
      rows(
        statement(`select d.number, d.language, d.type, d.name from ${page} denomination d on d.number = j.value
          where d.type in ('001', '002') order by j.key, d.rowid`),
        list,
      ),
      (name) => name.number,
    );
    // The first registered-office address of each, as `limit 1` over the number index reads it.
    const addresses = new Map(
      rows(
        statement(`select a.* from ${page} address a on a.rowid = (select min(rowid) from address
          where number = j.value and type = 'REGO')`),
        list,
      ).map((address) => [address.number, address]),
    );
    const enterprises = rows(
      statement(`select e.*, ${JURIDICAL_FORM} from ${page} enterprise e on e.number = j.value order by j.key`),
      language,
      list,
    );
    return enterprises.map((enterprise) => ({
      enterprise,
      names: (names.get(enterprise.number) ?? []).map(({ number: _, ...name }) => name),
      address: addresses.get(enterprise.number),
    }));
  }

  async address(id: string): Promise<Row | undefined> {
    return row(this.#files.addresses.snapshot()('select * from address where id = ? limit 1'), id);
  }

  async searchAddresses(query: AddressQuery): Promise<Row[]> {
    const statement = this.#files.addresses.snapshot();
    const terms = prefixTerms(statement, 'address_search');
    let filters = query.zipcode ? ` AND zipcode : "${query.zipcode}"` : '';
    if (query.municipality?.length) filters += ` AND ${ftsAllPrefixes(query.municipality, 'place', terms)}`;
    const byIndex = matching(
      statement(`select a.* from (select rowid as r from address_search where address_search match ? limit ?) s
        cross join address a on a.seq = s.r`),
      (tier) => ftsTier(tier, undefined, terms) + filters,
    );
    const houseWords = this.#files.addresses.derived('house terms', statement, houseTerms);
    return tiered(
      searchTiers(query.words),
      (tier, wanted) =>
        (houseWords && streetTier(statement, tier, filters, terms, houseWords, wanted)) ?? byIndex(tier, wanted),
      query,
      'seq',
    );
  }

  async postalCodes(words: readonly string[], page: Page): Promise<Row[]> {
    const where = words.map(() => `(' ' || search) like '% ' || ? || '%'`).join(' and ') || '1';
    return rows(
      this.#files.addresses.snapshot()(
        `select * from postal_code where ${where} order by zipcode, postname_nl, postname_fr limit ? offset ?`,
      ),
      ...words,
      page.limit,
      page.offset,
    );
  }

  async brands(page: Page): Promise<Row[]> {
    return rows(
      this.#files.vehicles.snapshot()('select name, versions from brand order by name limit ? offset ?'),
      page.limit,
      page.offset,
    );
  }

  async models(brand: string, page: Page): Promise<Row[] | undefined> {
    const statement = this.#files.vehicles.snapshot();
    if (!row(statement('select 1 as found from brand where name = ?'), brand)) return undefined;
    return rows(
      statement('select name, versions from model where brand = ? order by name limit ? offset ?'),
      brand,
      page.limit,
      page.offset,
    );
  }

  async versions(query: VersionQuery): Promise<Row[]> {
    const statement = this.#files.vehicles.snapshot();
    const where: string[] = [];
    const params: (string | number)[] = [];
    for (const [column, value] of [
      ['brand', query.brand],
      ['model', query.model],
      ['fuel', query.fuel],
    ] as const) {
      if (value === undefined) continue;
      where.push(`v.${column} = ?`);
      params.push(value);
    }
    if (query.year !== undefined) {
      where.push('exists (select 1 from json_each(v.years) where value = ?)');
      params.push(query.year);
    }
    const filter = where.length ? `where ${where.join(' and ')}` : '';
    if (!query.words?.length) {
      // seq is the popularity order (most registrations first, sources/eea.ts).
      return rows(
        statement(`select v.* from version v ${filter} order by v.seq limit ? offset ?`),
        ...params,
        query.limit,
        query.offset,
      );
    }
    const terms = prefixTerms(statement, 'version_search');
    // Ranked by tiers (search-tiers.ts), each in popularity order; the filters apply inside each tier.
    // FTS5 returns matches in rowid (= seq, popularity) order: no sort, and the scan stops
    // at the rows needed, the filters applied on the way.
    return tiered(
      searchTiers(query.words),
      matching(
        statement(`select v.* from (select rowid as r from version_search where version_search match ?) s
      cross join version v on v.seq = s.r ${filter} limit ?`),
        (tier) => ftsTier(tier, undefined, terms),
        params,
      ),
      query,
      'seq',
    );
  }

  async version(id: string): Promise<Row | undefined> {
    return row(this.#files.vehicles.snapshot()('select * from version where id = ?'), id);
  }

  async brandOf(candidates: readonly string[]): Promise<string | undefined> {
    if (candidates.length === 0) return undefined;
    const found = row(
      this.#files.vehicles.snapshot()(`select name from brand where name in (${candidates.map(() => '?').join(', ')})
      order by versions desc limit 1`),
      ...candidates,
    );
    return found?.name as string | undefined;
  }
}
