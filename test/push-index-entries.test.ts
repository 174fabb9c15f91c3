// Migration 2026-11-30T07-00 (issue 34): a push writes two index entries fewer, and what
// those indexes served reads another index instead, never the whole table.
// - external_refs' primary key is (distribution_id, entity_type, ref, company): the push's
//   lookups by company and ref, and a listing by ref without its company (GET .../leads?ref=),
//   read it; `external_refs_by_ref` is gone.
// - lead_pushes_received is gone: retention finds each distribution's expired push log
//   through lead_pushes_period, one distribution after the other.
import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as migration from '../src/db/migrations/2026-11-30T07-00_push_index_entries.ts';
import { leadRowsQuery, oldPushesQuery, PUSH_CANDIDATES, sqliteLookupTexts } from '../src/party/index.ts';
import { callApi } from './support/api-client.ts';
import { cliJson } from './support/cli.ts';
import { pushLead } from './support/lead-client.ts';
import { createTenant, dialect, startTestServer, type Tenant, type TestServer } from './support/test-server.ts';

const LONG_AGO = '2020-01-01T00:00:00.000Z';
/** PostgreSQL reading external_refs through its primary key, in any of the ways it can. */
const PRIMARY_KEY_READ =
  /(Index Scan|Index Only Scan) using external_refs_pk on external_refs|Bitmap Index Scan on external_refs_pk/;
const SCOPES = ['leads:write', 'leads:read', 'parties:read'];

let server: TestServer;
let tenants: Tenant[];

beforeAll(async () => {
  server = await startTestServer();
  tenants = [await createTenant(server.database.handle, SCOPES), await createTenant(server.database.handle, SCOPES)];
});
afterAll(() => server.close());

const db = () => server.database.handle.db;

/** Every line of the plan of `text` (SQLite: EXPLAIN QUERY PLAN; PostgreSQL: the generic plan the connections use). */
async function plan(text: string, parameters: readonly unknown[]): Promise<string> {
  if (dialect === 'sqlite') {
    const rows = await sql.raw<{ detail: string }>(`explain query plan ${text}`).execute(db().withoutPlugins());
    return rows.rows.map((row) => row.detail).join('\n');
  }
  return db()
    .connection()
    .execute(async (connection) => {
      const name = `plan_${randomUUID().replaceAll('-', '')}`;
      await sql.raw(`set plan_cache_mode = force_generic_plan`).execute(connection);
      // Whatever the tables' few rows make cheapest: an index that can serve the statement is
      // taken over a scan, and a statement no index serves still shows a scan.
      await sql.raw(`set enable_seqscan = off`).execute(connection);
      await sql.raw(`prepare ${name} as ${text}`).execute(connection);
      try {
        const literals = parameters.map((value) =>
          Array.isArray(value) ? `array[${value.map((v) => `'${v}'`).join(',')}]::text[]` : `'${value}'`,
        );
        const rows = await sql
          .raw<{ 'QUERY PLAN': string }>(`explain execute ${name}(${literals.join(',')})`)
          .execute(connection);
        return rows.rows.map((row) => row['QUERY PLAN']).join('\n');
      } finally {
        await sql.raw(`deallocate ${name}`).execute(connection);
        await sql.raw(`reset enable_seqscan`).execute(connection);
      }
    });
}

/** Pushes leads with one and with several refs, as partners do, so the lookups of both shapes have run. */
async function pushWithRefs(tenant: Tenant, refs: number, policyRefs: number) {
  const ref = () => ({ external_ref: randomUUID(), external_ref_company: 'crm' });
  const body = {
    prospect: {
      first_name: 'An',
      last_name: 'Peeters',
      external_refs: Array.from({ length: refs }, ref),
      insurance_policies:
        policyRefs > 0
          ? [{ external_refs: Array.from({ length: policyRefs }, () => ({ ref: randomUUID(), company: 'crm' })) }]
          : [],
    },
  };
  const pushed = await pushLead(server, tenant, 'customers', body);
  if (pushed.status !== 201) throw new Error(JSON.stringify(pushed.body));
  return { body, leadId: pushed.body.id as string };
}

describe('a push writes no index entry of its ref without the company, nor of its time alone', () => {
  it('has neither index, on either database', async () => {
    const names =
      dialect === 'sqlite'
        ? await sql<{ name: string }>`select name from sqlite_master where type = 'index'`.execute(db())
        : await sql<{
            name: string;
          }>`select indexname as name from pg_indexes where schemaname = current_schema()`.execute(db());
    const indexes = names.rows.map((row) => row.name);
    expect(indexes).not.toContain('external_refs_by_ref');
    expect(indexes).not.toContain('lead_pushes_received');
    expect(indexes).toContain('lead_pushes_period');
  });

  it('finds refs by company and ref, and by ref alone, through the primary key, push after push', async () => {
    const [tenant] = tenants as [Tenant];
    for (let i = 0; i < 5; i++) {
      await pushWithRefs(tenant, 1, 1);
      await pushWithRefs(tenant, 3, 2);
    }
    const { body, leadId } = await pushWithRefs(tenant, 2, 1);
    // A second push of the lead by its ref finds it (the lookup reads the reordered key).
    const again = await pushLead(server, tenant, 'customers', { prospect: body.prospect });
    expect([again.status, again.body.id]).toEqual([200, leadId]);
    // And a listing by the ref alone, without its company.
    const listed = await callApi(
      server,
      tenant,
      'GET',
      `/distributions/${tenant.distributionId}/leads?external_ref=${body.prospect.external_refs[1]!.external_ref}`,
    );
    expect(listed.body.items.map((item: { id: string }) => item.id)).toEqual([leadId]);

    const byRefAlone = leadRowsQuery(
      db(),
      { distributionId: tenant.distributionId, ref: { ref: 'r', company: undefined }, limit: 10 },
      undefined,
    ).compile();
    if (dialect === 'sqlite') {
      expect(await plan(byRefAlone.sql, [])).toMatch(
        /SEARCH external_refs USING INDEX sqlite_autoindex_external_refs_1 \(distribution_id=\? AND entity_type=\? AND ref=\?\)/,
      );
      const texts = sqliteLookupTexts().filter((text) => text.includes('external_refs'));
      // One ref and several, of the party and of policies.
      expect(texts.length).toBeGreaterThanOrEqual(2);
      for (const text of texts) {
        const lines = await plan(text, []);
        expect(lines).not.toMatch(/SCAN r\b/);
        expect(lines).toMatch(
          /SEARCH r USING INDEX sqlite_autoindex_external_refs_1 \(distribution_id=\? AND entity_type=\? AND ref=\? AND company=\?\)/,
        );
      }
    } else {
      expect(await plan(byRefAlone.sql, byRefAlone.parameters)).toMatch(
        /Index Scan using external_refs_pk on external_refs/,
      );
      const lookups = await plan(PUSH_CANDIDATES, [
        tenant.distributionId,
        'p',
        ['crm', 'crm'],
        ['a', 'b'],
        'k',
        ['o'],
        ['k'],
        ['crm'],
        ['c'],
        ['h'],
        't',
      ]);
      expect(lookups).not.toMatch(/Seq Scan on external_refs/);
      expect(lookups.match(new RegExp(PRIMARY_KEY_READ, 'g'))).toHaveLength(2);
    }
  });

  it('finds a distribution’s expired push log through lead_pushes_period', async () => {
    const query = oldPushesQuery(db(), tenants[0]!.distributionId, LONG_AGO, 500).compile();
    const lines = await plan(query.sql, query.parameters);
    expect(lines).toMatch(dialect === 'sqlite' ? /USING INDEX lead_pushes_period/ : /lead_pushes_period/);
    expect(lines).not.toMatch(dialect === 'sqlite' ? /SCAN lead_pushes/ : /Seq Scan on lead_pushes/);
  });

  it('removes the expired push log of every distribution in one retention pass, and only that', async () => {
    const aged = await Promise.all(tenants.map((tenant) => pushWithRefs(tenant, 1, 0)));
    const recent = await pushWithRefs(tenants[1]!, 1, 0);
    for (const { leadId } of aged)
      await db().updateTable('lead_pushes').set({ received_at: LONG_AGO }).where('lead_id', '=', leadId).execute();
    const report = await cliJson({ ...server.database.env, RETENTION_PUSH_LOG: '30d' }, ['retention', 'run']);
    expect(report).toMatchObject({ ran: true, push_log: 2 });
    const left = async (leadId: string) =>
      (await db().selectFrom('lead_pushes').select('id').where('lead_id', '=', leadId).execute()).length;
    expect(await Promise.all([...aged, recent].map(({ leadId }) => left(leadId)))).toEqual([0, 0, 1]);
  });
});

describe('the migration, both ways', () => {
  it('keeps every ref and its uniqueness, and restores both indexes going back', async () => {
    const schema = db() as unknown as Kysely<any>;
    const refsOf = async () =>
      (
        await db()
          .selectFrom('external_refs')
          .selectAll()
          .orderBy('distribution_id')
          .orderBy('entity_type')
          .orderBy('company')
          .orderBy('ref')
          .execute()
      ).map((row) => JSON.stringify(row));
    const before = await refsOf();
    expect(before.length).toBeGreaterThan(20);
    await migration.down(schema);
    expect(await refsOf()).toEqual(before);
    await migration.up(schema);
    expect(await refsOf()).toEqual(before);
    const [first] = await db().selectFrom('external_refs').selectAll().limit(1).execute();
    await expect(db().insertInto('external_refs').values(first!).execute()).rejects.toThrow(/unique|UNIQUE|duplicate/);
  });
});
