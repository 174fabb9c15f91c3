// Imports into staging tables beside the live ones in the database's own schema
// (`reference_<source>`, created once and never dropped or renamed: Kysely's migrator
// reads every schema by name, and a schema vanishing under it fails a server's start),
// then swaps them in: one transaction drops each live table and renames its staging twin,
// so readers see the old data or the new, never a mix. Pushes never wait: the reference
// tables share no table or lock with them.
import { randomBytes } from 'node:crypto';
import { CompiledQuery, sql } from 'kysely';
import type { DB } from '../../db/database.ts';
import { SOURCES, type ReferenceSourceDefinition, type SourceName } from '../import/reference-source.ts';
import { DATA_SET_INDEXES } from '../data-sets.ts';
import type { ImportRecord, ReferenceImporter, StagingImport } from './staging.ts';
import { FOLD_FUNCTION, liveSchema, workingSchema } from './postgres-schemas.repository.ts';

const SQL_TYPE = { int: 'integer', text: 'text', real: 'double precision' } as const;

export class PostgresReferenceImporter implements ReferenceImporter {
  readonly #db: DB;

  constructor(db: DB) {
    this.#db = db;
  }

  async begin(source: ReferenceSourceDefinition): Promise<StagingImport> {
    const db = this.#db;
    const schema = `"${liveSchema(await workingSchema(db), source.name)}"`;
    // Each import's own suffix, so two imports at once never write the same tables.
    const suffix = `__s${randomBytes(3).toString('hex')}`;
    const staging = (table: string) => `${schema}."${table}${suffix}"`;
    const run = (text: string, parameters: readonly unknown[] = []) =>
      db.executeQuery(CompiledQuery.raw(text, [...parameters]));
    await run(`create schema if not exists ${schema}`);
    await run(FOLD_FUNCTION(schema));
    const transient = new Set(source.transient);
    const indexes = DATA_SET_INDEXES[source.name];
    const staged = [...Object.keys(source.tables), ...indexes.postgresDerivedTables, 'meta'];
    const kept = staged.filter((table) => !transient.has(table));
    for (const [table, columns] of Object.entries(source.tables)) {
      const key = source.keys[table];
      await run(
        `create table ${staging(table)} (${columns.map(([name, type]) => `${name} ${SQL_TYPE[type]}${name === key ? ' primary key' : ''}`).join(', ')})`,
      );
    }
    await run(`create table ${staging('meta')} (record text not null)`);
    const dropStaging = async () => {
      for (const table of staged) await run(`drop table if exists ${staging(table)}`);
    };
    return {
      async insert(table, rows) {
        // One array per column, unnested into rows: one statement and as many parameters as
        // columns, whatever the batch's size (PostgreSQL takes at most 65,535 parameters).
        const columns = source.tables[table]!;
        const arrays = columns.map((_, c) => rows.map((row) => row[c]));
        const unnest = columns.map(([, type], c) => `$${c + 1}::${SQL_TYPE[type]}[]`).join(', ');
        await run(`insert into ${staging(table)} select * from unnest(${unnest}) on conflict do nothing`, arrays);
      },
      async finish(given) {
        for (const statement of indexes.postgres(staging, `${schema}.fold`)) await run(statement);
        for (const table of transient) await run(`drop table ${staging(table)}`);
        const record = { ...given, rows: { ...given.rows } };
        for (const table of Object.keys(source.tables)) {
          if (transient.has(table) || table in record.rows) continue;
          const { rows } = await run(`select count(*)::integer as count from ${staging(table)}`);
          record.rows[table] = (rows[0] as { count: number }).count;
        }
        await run(`insert into ${staging('meta')} (record) values ($1)`, [JSON.stringify(record)]);
        for (const table of kept) await run(`analyze ${staging(table)}`);
        await db.transaction().execute(async (trx) => {
          for (const table of kept) {
            await trx.executeQuery(CompiledQuery.raw(`drop table if exists ${schema}."${table}"`));
            await trx.executeQuery(CompiledQuery.raw(`alter table ${staging(table)} rename to "${table}"`));
          }
        });
        return record;
      },
      abort: dropStaging,
    };
  }

  async status(): Promise<Record<SourceName, ImportRecord | null>> {
    const base = await workingSchema(this.#db);
    const entries = await Promise.all(
      SOURCES.map(async (source) => {
        const meta = `"${liveSchema(base, source)}".meta`;
        const { rows } = await sql<{ found: string | null }>`select to_regclass(${meta}) as found`.execute(this.#db);
        if (!rows[0]?.found) return [source, null] as const;
        const found = await this.#db.executeQuery<{ record: string }>(CompiledQuery.raw(`select record from ${meta}`));
        return [source, found.rows[0] ? (JSON.parse(found.rows[0].record) as ImportRecord) : null] as const;
      }),
    );
    return Object.fromEntries(entries) as Record<SourceName, ImportRecord | null>;
  }
}
