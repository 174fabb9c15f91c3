// `lead-intake db compact` (docs/design.md section 14; docs/postgresql.md, "Erased data and
// db compact"): after an erasure PostgreSQL's data files still hold the person in their free
// space; once compacted (VACUUM FULL table by table) no byte of them is left in any data file
// of the database, read from the disk after a checkpoint. On SQLite it vacuums the file.
// Either way the command reports each table's lock and time, and pushes carry on meanwhile.
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi } from './support/api-client.ts';
import { runCli } from './support/cli.ts';
import { pushLead } from './support/lead-client.ts';
import { pushRichPerson, uniqueMarker } from './support/personal-data.ts';
import { createTenant, dialect, startTestServer, type Tenant, type TestServer } from './support/test-server.ts';

let server: TestServer;
let tenant: Tenant;
const SCOPES = ['leads:write', 'leads:read', 'parties:read', 'parties:update', 'parties:erase'];

beforeAll(async () => {
  server = await startTestServer();
  tenant = await createTenant(server.database.handle, SCOPES);
});
afterAll(() => server.close());

const db = () => server.database.handle.db;

/**
 * The data files (main fork) holding `texts`, by relation: every table, index and TOAST
 * table of this test's schema, read from the disk as the server stores them, after a
 * checkpoint has written every changed page there (pg_read_binary_file: the test connects
 * as a superuser).
 */
async function postgresFilesContaining(texts: readonly string[]): Promise<string[]> {
  await sql`checkpoint`.execute(db());
  const { rows } = await sql<{ name: string; file: string }>`
    with own as (select oid, reltoastrelid from pg_class where relnamespace = current_schema()::regnamespace),
    toast as (select reltoastrelid as oid from own where reltoastrelid <> 0),
    toast_index as (select indexrelid as oid from pg_index where indrelid in (select oid from toast))
    select c.oid::regclass::text as name, pg_relation_filepath(c.oid) as file from pg_class c
    where c.relkind in ('r', 'i', 't')
      and (c.oid in (select oid from own) or c.oid in (select oid from toast) or c.oid in (select oid from toast_index))`.execute(
    db(),
  );
  const found: string[] = [];
  for (const { name, file } of rows) {
    if (!file) continue;
    const { rows: data } = await sql<{
      bytes: Buffer | null;
    }>`select pg_read_binary_file(${file}, 0, (pg_stat_file(${file}, true)).size, true) as bytes`.execute(db());
    const bytes = data[0]?.bytes;
    if (bytes && texts.some((text) => bytes.includes(Buffer.from(text, 'utf8')))) found.push(name);
  }
  return found;
}

describe('lead-intake db compact', () => {
  // A checkpoint and every data file of the schema read twice: some 15 s on a loaded machine.
  it('rewrites every table holding personal data, reporting each lock and time, while pushes carry on', {
    timeout: 120_000,
  }, async () => {
    const kept = await pushRichPerson(server, tenant);
    const person = await pushRichPerson(server, tenant);
    const texts = [person.marker, person.marker.toLowerCase()];
    const d = `/distributions/${tenant.distributionId}`;
    expect((await callApi(server, tenant, 'DELETE', `${d}/parties/${person.partyId}`)).status).toBe(200);
    if (dialect === 'postgres') {
      // The rows are gone, their bytes are not: a plain VACUUM leaves them in free space.
      await sql`vacuum`.execute(db());
      expect(await postgresFilesContaining(texts)).not.toEqual([]);
    }

    // Pushes made while it runs are answered and kept.
    const pushes = Promise.all(
      Array.from({ length: 5 }, () =>
        pushLead(server, tenant, 'customers', { prospect: { first_name: 'During', last_name: uniqueMarker() } }),
      ),
    );
    const compacted = await runCli(server.database.env, ['db', 'compact']);
    expect(compacted.code, compacted.stderr).toBe(0);
    expect((await pushes).map((reply) => reply.status)).toEqual([201, 201, 201, 201, 201]);
    const report = JSON.parse(compacted.stdout);
    expect(report.dialect).toBe(dialect);
    for (const table of report.tables) {
      expect(table).toEqual({
        table: expect.any(String),
        lock: expect.any(String),
        ms: expect.any(Number),
        bytes_before: expect.any(Number),
        bytes_after: expect.any(Number),
      });
    }
    if (dialect === 'postgres') {
      const names = report.tables.map((table: { table: string }) => table.table);
      expect(names).toEqual(
        expect.arrayContaining(['parties', 'leads', 'lead_pushes', 'lead_notes', 'webhook_stopped_urls']),
      );
      expect(new Set(report.tables.map((table: { lock: string }) => table.lock))).toEqual(
        new Set(['ACCESS EXCLUSIVE']),
      );
      expect(compacted.stderr).toContain(`[${names.length}/${names.length}] ${names.at(-1)}: VACUUM FULL`);
      expect(await postgresFilesContaining(texts)).toEqual([]);
      // The rest of the database is as it was: the person kept is all there.
      expect(await postgresFilesContaining([kept.marker])).not.toEqual([]);
    } else {
      expect(report.tables).toHaveLength(1);
      const file = fs.readFileSync(path.join(server.database.env.DATA_DIR!, 'lead-intake.db'));
      expect(file.includes(Buffer.from(person.marker))).toBe(false);
      expect(file.includes(Buffer.from(kept.marker))).toBe(true);
    }
    const read = await callApi(server, tenant, 'GET', `${d}/parties/${kept.partyId}`);
    expect(read.status).toBe(200);
    expect((await callApi(server, tenant, 'GET', `${d}/parties/${person.partyId}`)).status).toBe(410);
    // The kept person is still found by their ref.
    const found = await callApi(server, tenant, 'GET', `${d}/leads?external_ref=${encodeURIComponent(kept.ref)}`);
    expect(JSON.stringify(found.body)).toContain(kept.leadId);
  });
});
