// Car brands, models and versions from their PostgreSQL reference schema, one statement each.
import { escapeLiteral } from 'pg';
import { searchTiersOf, tieredKeys } from '../search/postgres-tiers.repository.ts';
import type { ReferenceSchemas } from '../store/reference-schemas.repository.ts';
import type { Page, Row } from '../store/rows.ts';
import type { VehicleReader, VersionQuery } from './vehicle-reader.ts';

export class PostgresVehicleReader implements VehicleReader {
  readonly #schemas: ReferenceSchemas;

  constructor(schemas: ReferenceSchemas) {
    this.#schemas = schemas;
  }

  async brands(page: Page): Promise<Row[]> {
    return this.#schemas.query(
      'vehicles',
      (s) => `select name, versions from ${s}.brand order by name limit $1 offset $2`,
      [page.limit, page.offset],
    );
  }

  async models(brand: string, page: Page): Promise<Row[] | undefined> {
    const found = await this.#schemas.query(
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
    // seq is the popularity order (most registrations first, eea.ts).
    const words = query.words ?? [];
    if (words.length === 0) {
      return this.#schemas.query(
        'vehicles',
        (s) =>
          `select * from ${s}.version where ${where.join(' and ')} order by seq limit ${query.limit} offset ${query.offset}`,
        [],
      );
    }
    const frequencies = await this.#schemas.termFrequencies('vehicles', 'version');
    const conditions = searchTiersOf(words, frequencies, query, `and ${where.join(' and ')}`);
    return this.#schemas.query(
      'vehicles',
      (s) => `select v.* from
        (${tieredKeys('seq', `${s}.version`, conditions, query)}) m
      join ${s}.version v on v.seq = m.seq order by m.tier, m.seq`,
      [],
    );
  }

  async version(id: string): Promise<Row | undefined> {
    return (await this.#schemas.query('vehicles', (s) => `select * from ${s}.version where id = $1`, [id]))[0];
  }

  async brandOf(candidates: readonly string[]): Promise<string | undefined> {
    if (candidates.length === 0) return undefined;
    const [found] = await this.#schemas.query(
      'vehicles',
      (s) => `select name from ${s}.brand where name = any($1) order by versions desc limit 1`,
      [candidates],
    );
    return found?.name as string | undefined;
  }
}
