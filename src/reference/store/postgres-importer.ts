// Imports into a fresh staging schema, then swaps it in: one transaction drops the live
// schema and renames the staging one, so readers see the old data or the new, never a
// mix. Pushes never wait: the reference schemas share no table or lock with them.
import { CompiledQuery, sql } from 'kysely';
import type { DB } from '../../db/database.ts';
import { SOURCES, type ReferenceSourceDefinition, type SourceName } from '../reference-source.ts';
import type { ImportRecord, ReferenceImporter, StagingImport } from './reference-store.ts';
import { POSTGRES_FINISH } from './postgres-indexes.ts';
import { FOLD_FUNCTION, liveSchema, stagingSchema, workingSchema } from './postgres-schemas.ts';

const SQL_TYPE = { int: 'integer', text: 'text', real: 'double precision' } as const;
/** PostgreSQL takes at most 65,535 parameters in one statement. */
const MAX_PARAMETERS = 60_000;

export class PostgresReferenceImporter implements ReferenceImporter {
  readonly #db: DB;

  constructor(db: DB) {
    this.#db = db;
  }

  async begin(source: ReferenceSourceDefinition): Promise<StagingImport> {
    const db = this.#db;
    const base = await workingSchema(db);
    const staging = stagingSchema(base, source.name);
    const live = liveSchema(base, source.name);
    const s = `"${staging}"`;
    const run = (text: string, parameters: readonly unknown[] = []) => db.executeQuery(CompiledQuery.raw(text, [...parameters]));
    await run(`create schema ${s}`);
    await run(FOLD_FUNCTION(staging));
    for (const [table, columns] of Object.entries(source.tables)) {
      const key = source.keys[table];
      await run(`create table ${s}.${table} (${columns.map(([name, type]) => `${name} ${SQL_TYPE[type]}${name === key ? ' primary key' : ''}`).join(', ')})`);
    }
    await run(`create table ${s}.meta (record text not null)`);
    return {
      async insert(table, rows) {
        const columns = source.tables[table]!;
        const perStatement = Math.floor(MAX_PARAMETERS / columns.length);
        for (let start = 0; start < rows.length; start += perStatement) {
          const chunk = rows.slice(start, start + perStatement);
          const values = chunk.map((_, r) => `(${columns.map((__, c) => `$${r * columns.length + c + 1}`).join(', ')})`);
          await run(`insert into ${s}.${table} values ${values.join(', ')} on conflict do nothing`, chunk.flat());
        }
      },
      async finish(record) {
        for (const statement of POSTGRES_FINISH[source.name](s)) await run(statement);
        await run(`insert into ${s}.meta (record) values ($1)`, [JSON.stringify(record)]);
        for (const table of Object.keys(source.tables)) await run(`analyze ${s}.${table}`);
        await db.transaction().execute(async (trx) => {
          await trx.executeQuery(CompiledQuery.raw(`drop schema if exists "${live}" cascade`));
          await trx.executeQuery(CompiledQuery.raw(`alter schema ${s} rename to "${live}"`));
        });
      },
      async abort() {
        await run(`drop schema if exists ${s} cascade`);
      },
    };
  }

  async status(): Promise<Record<SourceName, ImportRecord | null>> {
    const base = await workingSchema(this.#db);
    const entries = await Promise.all(SOURCES.map(async (source) => {
      const schema = liveSchema(base, source);
      const { rows } = await sql<{ found: string | null }>`select to_regclass(${`"${schema}".meta`}) as found`.execute(this.#db);
      if (!rows[0]?.found) return [source, null] as const;
      const meta = await this.#db.executeQuery<{ record: string }>(CompiledQuery.raw(`select record from "${schema}".meta`));
      return [source, meta.rows[0] ? (JSON.parse(meta.rows[0].record) as ImportRecord) : null] as const;
    }));
    return Object.fromEntries(entries) as Record<SourceName, ImportRecord | null>;
  }
}
