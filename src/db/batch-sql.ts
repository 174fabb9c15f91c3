// SQL text for writing many rows of one table in one statement, per dialect. SQLite binds
// one parameter per value (a multi-row VALUES list, its text cached per row count);
// PostgreSQL binds one array per column and reads them with unnest(), so its text is the
// same whatever the number of rows and can be one named prepared statement.

export type ColumnType = 'text' | 'integer';

export interface TableShape {
  readonly table: string;
  /** Column names with their PostgreSQL array element types. The first column is the key for updates. */
  readonly columns: ReadonlyArray<readonly [name: string, type: ColumnType]>;
}

/** Rows per SQLite statement: within its 32,766 bound parameters for any of our tables. */
export const SQLITE_ROWS_PER_STATEMENT = 1000;

// By shape, then by row count: a push asks for several texts, and a key string built per ask
// was garbage on every push.
const inserts = new Map<TableShape, string[]>();
const updates = new Map<TableShape, string[]>();

function cached(cache: Map<TableShape, string[]>, shape: TableShape, rows: number, build: () => string): string {
  let texts = cache.get(shape);
  if (texts === undefined) {
    texts = [];
    cache.set(shape, texts);
  }
  let text = texts[rows];
  if (text === undefined) {
    text = build();
    texts[rows] = text;
  }
  return text;
}

function names(shape: TableShape): string {
  return shape.columns.map(([name]) => name).join(', ');
}

function rowsOfPlaceholders(shape: TableShape, rows: number): string {
  const width = shape.columns.length;
  return Array.from(
    { length: rows },
    (_, row) => `(${Array.from({ length: width }, (_, column) => `?${row * width + column + 1}`).join(', ')})`,
  ).join(', ');
}

/** SQLite: `insert into T (...) values (...), (...)` for `rows` rows, values row by row. */
export function sqliteInsert(shape: TableShape, rows: number): string {
  return cached(
    inserts,
    shape,
    rows,
    () => `insert into ${shape.table} (${names(shape)}) values ${rowsOfPlaceholders(shape, rows)}`,
  );
}

/**
 * SQLite: set every column but the key from a VALUES list joined on the key (UPDATE FROM,
 * SQLite 3.33). VALUES columns are called column1, column2, ...
 */
export function sqliteUpdate(shape: TableShape, rows: number): string {
  return cached(updates, shape, rows, () => {
    const [key, ...rest] = shape.columns.map(([name]) => name);
    const set = rest.map((name, i) => `${name} = v.column${i + 2}`).join(', ');
    return `update ${shape.table} set ${set} from (values ${rowsOfPlaceholders(shape, rows)}) as v where ${shape.table}.${key} = v.column1`;
  });
}

/** PostgreSQL: the arrays of one table's columns, from parameter `$first` on. */
function unnest(shape: TableShape, first: number): string {
  const arrays = shape.columns.map(([, type], i) => `$${first + i}::${type}[]`).join(', ');
  return `unnest(${arrays}) as v(${names(shape)})`;
}

/** PostgreSQL: `insert into T (...) select * from unnest($first::text[], ...)`. */
export function postgresInsert(shape: TableShape, first: number): string {
  return `insert into ${shape.table} (${names(shape)}) select * from ${unnest(shape, first)}`;
}

/** PostgreSQL: every column but the key set from unnested arrays joined on the key. */
export function postgresUpdate(shape: TableShape, first: number): string {
  const [key, ...rest] = shape.columns.map(([name]) => name);
  const set = rest.map((name) => `${name} = v.${name}`).join(', ');
  return `update ${shape.table} as t set ${set} from ${unnest(shape, first)} where t.${key} = v.${key}`;
}

/** Row-major values (one array per row) as PostgreSQL's column arrays. */
export function columnsOf(shape: TableShape, rows: ReadonlyArray<readonly unknown[]>): unknown[][] {
  return shape.columns.map((_, column) => rows.map((row) => row[column]));
}
