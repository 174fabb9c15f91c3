// DATABASE_PREPARED_STATEMENTS (docs/operations.md, "Configuration"): on PostgreSQL the push path's
// statements are named prepared statements, unless a pooler that cannot keep them asks for
// plain ones. Both ways give the same answers; only the first leaves statements prepared
// on the connection.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { buildApp, type App } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase, type DatabaseHandle } from '../src/db/database.ts';
import {
  createTestDatabase,
  createTenant,
  dialect,
  freePort,
  type Tenant,
  type TestDatabase,
} from './support/test-server.ts';
import { pushLead } from './support/lead-client.ts';
import { callApi } from './support/api-client.ts';

it('refuses a DATABASE_PREPARED_STATEMENTS that is not true or false', () => {
  expect(loadConfig({}).databasePreparedStatements).toBe(true);
  expect(loadConfig({ DATABASE_PREPARED_STATEMENTS: 'false' }).databasePreparedStatements).toBe(false);
  expect(() => loadConfig({ DATABASE_PREPARED_STATEMENTS: 'sometimes' })).toThrow(/DATABASE_PREPARED_STATEMENTS/);
});

describe.skipIf(dialect !== 'postgres').each([true, false])(
  'PostgreSQL with DATABASE_PREPARED_STATEMENTS=%s',
  (prepared) => {
    let database: TestDatabase;
    let handle: DatabaseHandle;
    let app: App;
    let url: string;
    let tenant: Tenant;

    beforeAll(async () => {
      database = await createTestDatabase();
      const port = await freePort();
      const config = loadConfig({
        ...database.env,
        PORT: String(port),
        LOG_LEVEL: 'silent',
        DATABASE_PREPARED_STATEMENTS: String(prepared),
      });
      // One connection, so what the pushes left prepared on it can be looked at afterwards.
      handle = openDatabase({ ...config, poolSize: 1 });
      app = await buildApp({ config, database: handle });
      url = await app.listen({ port, host: '127.0.0.1' });
      tenant = await createTenant(handle, ['leads:write', 'parties:update', 'parties:read']);
    });
    afterAll(async () => {
      await app.close();
      await handle.close();
      await database.drop();
    });

    it('creates, merges and updates a lead the same way, and prepares statements only when asked', async () => {
      const server = { url };
      const ref = randomUUID();
      const carId = randomUUID();
      const body = {
        prospect: {
          first_name: 'Pre',
          last_name: 'Pared',
          external_refs: [{ external_ref: ref }],
          risk_objects: { cars: [{ id: carId, vin: 'WVWZZZ1JZXW000777', kw: 80 }] },
          insurance_policies: [
            { insurance_company: 'AG', policy_nr: ref, coverages: [{ name: 'BA', risk_object_id: carId }] },
          ],
        },
      };
      const created = await pushLead(server, tenant, 'customers', body);
      expect(created.status).toBe(201);
      expect((await pushLead(server, tenant, 'customers', body)).status).toBe(200);
      const merged = await pushLead(server, tenant, 'customers', {
        prospect: { ...body.prospect, risk_objects: { cars: [{ id: carId, kw: 90 }] } },
      });
      expect(merged.status).toBe(200);
      expect(merged.body.risk_object_revisions.cars[0]).toMatchObject({
        risk_object_id: carId,
        revision_nr: 2,
        kw: 90,
      });
      const patched = await callApi(
        server,
        tenant,
        'PATCH',
        `/distributions/${tenant.distributionId}/parties/${created.body.party_id}`,
        { body: { telephonenr: '+32 9 000 00 01' } },
      );
      expect(patched.status).toBe(200);

      const { rows } = await sql<{ name: string }>`select name from pg_prepared_statements`.execute(handle.db);
      const names = rows.map((row) => row.name);
      if (prepared) {
        expect(names).toEqual(expect.arrayContaining(['push_candidates', 'lead_head_for_update']));
        // A merge's head goes with its new rows, one text per set of tables (changeset.repository.ts).
        expect(names.filter((name) => name.startsWith('lead_head_insert_')).length).toBeGreaterThan(0);
      } else expect(names).toEqual([]);
    });
  },
);
