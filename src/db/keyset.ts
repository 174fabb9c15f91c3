// Where a listing's page starts (keyset pagination): a position in its (time, id) order,
// which a repository reads the rows after (or before) in one indexed range. The HTTP side
// carries it in an opaque cursor (http/pagination.ts); repositories take it from here, so
// none of them imports http/ (docs/design.md section 10).
import { type Expression, sql } from 'kysely';

/** Position in a listing's (time, id) order. */
export interface Position {
  readonly at: string;
  readonly id: string;
}

/**
 * The rows past `after` in the (value, id) order, ascending or descending: `(value, id) >
 * (at, id)` (or `<`), a row value comparison, which both databases read as the start of one
 * range of an index on (…, value, id). Spelled out as `value > at or (value = at and id >
 * id)`, PostgreSQL took only the distribution as the index's bound and filtered every row
 * from the start of the distribution's order: page n read n pages (docs/benchmarks.md).
 */
export function pastPosition(
  value: Expression<unknown>,
  id: Expression<unknown>,
  direction: 'asc' | 'desc',
  after: { readonly at: unknown; readonly id: string },
) {
  return sql<boolean>`(${value}, ${id}) ${sql.raw(direction === 'desc' ? '<' : '>')} (${after.at}, ${after.id})`;
}
