// What Kysely's migrator (and anything else asking `db.introspection`) sees of a PostgreSQL
// database: the schema this connection works in, not every schema of the database. Several
// deployments, test runs and the reference imports' swaps (docs/design.md section 9) share
// one database; Kysely's own introspector reads every schema's columns, and a column or
// table dropped in another schema while it read made the read fail, and a start-up with it.
import {
  PostgresDialect,
  sql,
  type DatabaseIntrospector,
  type DatabaseMetadataOptions,
  type Kysely,
  type SchemaMetadata,
  type TableMetadata,
} from 'kysely';

interface ColumnRow {
  table: string;
  kind: string;
  column: string | null;
  type: string | null;
  nullable: boolean | null;
  has_default: boolean | null;
  identity: boolean | null;
}

export class CurrentSchemaIntrospector implements DatabaseIntrospector {
  readonly #db: Kysely<unknown>;

  constructor(db: Kysely<unknown>) {
    this.#db = db;
  }

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<{ name: string }>`select current_schema() as name`.execute(this.#db);
    return rows.filter((row) => row.name !== null);
  }

  async getTables(options: DatabaseMetadataOptions = { withInternalKyselyTables: false }): Promise<TableMetadata[]> {
    const { rows } = await sql<ColumnRow & { schema: string }>`
      select c.relname as table, c.relkind as kind, current_schema() as schema, a.attname as column,
             format_type(a.atttypid, null) as type, not a.attnotnull as nullable, a.atthasdef as has_default,
             a.attidentity <> '' or coalesce(pg_get_expr(d.adbin, d.adrelid) like 'nextval(%', false) as identity
        from pg_catalog.pg_class c
        left join pg_catalog.pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
        left join pg_catalog.pg_attrdef d on d.adrelid = c.oid and d.adnum = a.attnum
       where c.relnamespace = current_schema()::regnamespace and c.relkind in ('r', 'v', 'p', 'f')
       order by c.relname, a.attnum`.execute(this.#db);
    const tables = new Map<string, TableMetadata>();
    for (const row of rows) {
      if (!options.withInternalKyselyTables && row.table.startsWith('kysely_migration')) continue;
      let table = tables.get(row.table);
      if (!table) {
        table = {
          name: row.table,
          schema: row.schema,
          isView: row.kind === 'v',
          isForeign: row.kind === 'f',
          columns: [],
        };
        tables.set(row.table, table);
      }
      if (row.column !== null)
        table.columns.push({
          name: row.column,
          dataType: row.type!,
          isNullable: row.nullable!,
          hasDefaultValue: row.has_default!,
          isAutoIncrementing: row.identity!,
        });
    }
    return [...tables.values()];
  }

  async getMetadata(options?: DatabaseMetadataOptions) {
    return { tables: await this.getTables(options) };
  }
}

/** PostgreSQL, introspected in the connection's own schema only. */
export class CurrentSchemaPostgresDialect extends PostgresDialect {
  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new CurrentSchemaIntrospector(db);
  }
}
