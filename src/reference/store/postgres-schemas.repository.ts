// PostgreSQL keeps each reference database in a schema of its own, named after the schema
// the service works in (`reference_<source>` beside `public`; `<schema>_<source>` beside
// any other, so test schemas stay apart). postgres-importer.repository.ts swaps tables inside it.
import { sql } from 'kysely';
import type { DB } from '../../db/database.ts';
import type { SourceName } from '../import/reference-source.ts';

export async function workingSchema(db: DB): Promise<string> {
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  return rows[0]!.schema;
}

export function liveSchema(base: string, source: SourceName): string {
  return base === 'public' ? `reference_${source}` : `${base}_${source}`;
}

/** Folds case and the accents of the Latin letters Belgian names use, as search-text.ts does in JavaScript. */
export const FOLD_FUNCTION = (
  schema: string,
) => `create or replace function ${schema}.fold(text) returns text language sql immutable parallel safe as $$
  select translate(lower($1), 'àáâãäåāăąçćčďèéêëēėęěğìíîïīįľñńňòóôõöōőŕřśšşťùúûüūůűųýÿźżž',
                              'aaaaaaaaacccdeeeeeeeegiiiiiilnnnooooooorrssstuuuuuuuuyyzzz') $$`;
