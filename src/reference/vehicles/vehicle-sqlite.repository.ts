// Car brands, models and versions from their SQLite reference file
// (store/reference-file.repository.ts).
import { ftsTier, searchTiers } from '../search/search-tiers.ts';
import { matching, prefixTerms, tiered } from '../search/sqlite-tiers.repository.ts';
import type { Page, Row } from '../store/rows.ts';
import { type ReferenceFile, row, rows } from '../store/reference-file.repository.ts';
import type { VehicleReader, VersionQuery } from './vehicle-reader.ts';

export class SqliteVehicleReader implements VehicleReader {
  readonly #file: ReferenceFile;

  constructor(file: ReferenceFile) {
    this.#file = file;
  }

  async brands(page: Page): Promise<Row[]> {
    return rows(
      this.#file.snapshot()('select name, versions from brand order by name limit ? offset ?'),
      page.limit,
      page.offset,
    );
  }

  async models(brand: string, page: Page): Promise<Row[] | undefined> {
    const statement = this.#file.snapshot();
    if (!row(statement('select 1 as found from brand where name = ?'), brand)) return undefined;
    return rows(
      statement('select name, versions from model where brand = ? order by name limit ? offset ?'),
      brand,
      page.limit,
      page.offset,
    );
  }

  async versions(query: VersionQuery): Promise<Row[]> {
    const statement = this.#file.snapshot();
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
      // seq is the popularity order (most registrations first, eea.ts).
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
    return row(this.#file.snapshot()('select * from version where id = ?'), id);
  }

  async brandOf(candidates: readonly string[]): Promise<string | undefined> {
    if (candidates.length === 0) return undefined;
    const found = row(
      this.#file.snapshot()(`select name from brand where name in (${candidates.map(() => '?').join(', ')})
      order by versions desc limit 1`),
      ...candidates,
    );
    return found?.name as string | undefined;
  }
}
