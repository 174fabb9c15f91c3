// How the PostgreSQL readers of the three data sets reach their live schemas
// (postgres-schemas.repository.ts). A schema that does not exist yet (nothing imported) reads as empty.
import { CompiledQuery } from 'kysely';
import type { DB } from '../../db/database.ts';
import type { SourceName } from '../import/reference-source.ts';
import { NO_FREQUENCIES, type TermFrequencies, termFrequencies } from '../search/postgres-gin-words.ts';
import { liveSchema, workingSchema } from './postgres-schemas.repository.ts';
import type { Row } from './rows.ts';

/** How long a search's hints (statistics, house words) are used before they are read again. */
const HINTS_FOR_MS = 60_000;

export class ReferenceSchemas {
  readonly db: DB;
  #base: Promise<string> | undefined;
  readonly #hints = new Map<string, { value: Promise<unknown>; read: number }>();

  constructor(db: DB) {
    this.db = db;
  }

  /** One statement on `source`'s live schema, which `text` names as given (quoted). */
  async query(source: SourceName, text: (schema: string) => string, parameters: readonly unknown[]): Promise<Row[]> {
    this.#base ??= workingSchema(this.db);
    const schema = `"${liveSchema(await this.#base, source)}"`;
    try {
      const result = await this.db.executeQuery<Row>(CompiledQuery.raw(text(schema), [...parameters]));
      return result.rows;
    } catch (error) {
      // Not imported yet: no schema (3F000) or no table (42P01).
      if (['3F000', '42P01'].includes((error as { code?: string }).code ?? '')) return [];
      throw error;
    }
  }

  /**
   * What a search plans with and reads once in a while, not per request: `read` runs again
   * once the value is a minute old, since an import swaps new tables into the same schema.
   * A hint only: a stale one makes a search slower, never its answer different.
   */
  async hint<T>(source: SourceName, name: string, read: (schema: string) => Promise<T>): Promise<T> {
    this.#base ??= workingSchema(this.db);
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
  termFrequencies(source: SourceName, table: string): Promise<TermFrequencies> {
    return this.hint(source, table, (schema) =>
      this.db
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
}
