// Keeps "tables added later are reached too" (docs/design.md section 15) true: every table
// of the live schema that names a party or a lead (a party_id, lead_id or entity_id column,
// or a foreign key to a table of the person) is in the erasure registry
// (src/party/privacy/party-rows.repository.ts) or listed there as not personal, with why.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../src/db/database.ts';
import { NOT_PERSONAL, PARTY_ROWS } from '../src/party/index.ts';
import { liveTables } from './support/personal-data.ts';
import { createTestDatabase, type TestDatabase } from './support/test-server.ts';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

const PERSON_COLUMNS = new Set(['party_id', 'lead_id', 'entity_id']);

async function columnsAndReferences(handle: DatabaseHandle, table: string) {
  if (handle.dialect === 'sqlite') {
    const columns = await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(handle.db);
    const keys = await sql<{ table: string }>`select "table" from pragma_foreign_key_list(${table})`.execute(handle.db);
    return { columns: columns.rows.map((row) => row.name), references: keys.rows.map((row) => row.table) };
  }
  const columns = await sql<{ name: string }>`select column_name as name from information_schema.columns
    where table_schema = current_schema() and table_name = ${table}`.execute(handle.db);
  const keys = await sql<{ table: string }>`select confrelid::regclass::text as table from pg_constraint
    where contype = 'f' and conrelid = (quote_ident(current_schema()) || '.' || quote_ident(${table}))::regclass`.execute(
    handle.db,
  );
  return {
    columns: columns.rows.map((row) => row.name),
    // regclass text may carry the schema: keep the table's own name.
    references: keys.rows.map((row) => row.table.split('.').at(-1)!.replaceAll('"', '')),
  };
}

describe('the personal-data registry', () => {
  it('covers every table that names a party or a lead, or says why it is not personal', async () => {
    const handle = database.handle;
    const registered = new Set(PARTY_ROWS.flatMap((rows) => [rows.table as string, ...(rows.covers ?? [])]));
    const tables = await liveTables(handle);
    const unreached: string[] = [];
    for (const table of tables) {
      if (registered.has(table) || table in NOT_PERSONAL) continue;
      const { columns, references } = await columnsAndReferences(handle, table);
      const names = columns.some((column) => PERSON_COLUMNS.has(column));
      const refers = references.some((target) => registered.has(target));
      if (names || refers) unreached.push(table);
    }
    expect(unreached, 'tables about a person that an erasure would not reach').toEqual([]);
  });

  it('names only tables that exist', async () => {
    const tables = new Set(await liveTables(database.handle));
    const named = PARTY_ROWS.flatMap((rows) => [rows.table as string, ...(rows.covers ?? [])]);
    for (const table of [...named, ...Object.keys(NOT_PERSONAL)]) expect(tables, table).toContain(table);
  });

  it('deletes a row before the rows it references', async () => {
    const order = PARTY_ROWS.map((rows) => rows.table as string);
    for (const [index, table] of order.entries()) {
      const { references } = await columnsAndReferences(database.handle, table);
      for (const target of references.filter((target) => order.includes(target) && target !== table))
        expect(order.indexOf(target), `${table} references ${target}`).toBeGreaterThan(index);
    }
  });
});
