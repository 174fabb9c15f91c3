// A merge on PostgreSQL takes its party's lock in the push's lookup (issue 34: one round trip
// fewer per merge): while another transaction holds the party, the push waits in the lookup
// statement itself, not in a statement of its own after it, and once the other commits it
// merges into what that one left. A lead pushed again and again keeps merging.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi } from './support/api-client.ts';
import { eventually } from './support/eventually.ts';
import { pushLead } from './support/lead-client.ts';
import { createTenant, dialect, startTestServer, type Tenant, type TestServer } from './support/test-server.ts';

describe.runIf(dialect === 'postgres')('the party a merge writes, locked by the lookup (PostgreSQL)', () => {
  let server: TestServer;
  let tenant: Tenant;
  let holder: pg.Client;
  let watcher: pg.Client;

  beforeAll(async () => {
    server = await startTestServer();
    tenant = await createTenant(server.database.handle, ['leads:write', 'leads:read']);
    holder = new pg.Client({ connectionString: server.database.env.DATABASE_URL });
    watcher = new pg.Client({ connectionString: server.database.env.DATABASE_URL });
    await Promise.all([holder.connect(), watcher.connect()]);
  });
  afterAll(async () => {
    await Promise.all([holder?.end(), watcher?.end()]);
    await server?.close();
  });

  const prospect = (telephonenr: string) => ({
    first_name: 'Lotte',
    last_name: 'Maes',
    telephonenr,
    external_refs: [{ external_ref: 'LOCK-1', external_ref_company: 'crm' }],
  });

  it('waits for the party in the lookup, then merges into what the other transaction committed', async () => {
    const first = await pushLead(server, tenant, 'customers', { prospect: prospect('+32 470 00 00 01') });
    expect(first.status).toBe(201);
    const partyId = first.body.party_id as string;

    await holder.query('begin');
    const holderPid = (await holder.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
    await holder.query('select 1 from parties where id = $1 for update', [partyId]);
    await holder.query(
      `update parties set data = jsonb_set(data::jsonb, '{email}', '"lotte@example.be"')::text where id = $1`,
      [partyId],
    );
    const merging = pushLead(server, tenant, 'customers', { prospect: prospect('+32 470 00 00 02') });
    // The push's backend waits for the holder, in the statement that looks its candidates up.
    const waiting = await eventually(
      async () => {
        const { rows } = await watcher.query<{ query: string }>(
          `select a.query from pg_stat_activity a join pg_locks l on l.pid = a.pid
            where not l.granted and l.locktype = 'transactionid' and a.pid <> $1 and a.datname = current_database()`,
          [holderPid],
        );
        return rows[0]?.query;
      },
      10_000,
      'the push to wait for the held party',
    );
    await holder.query('commit');
    // (pg_stat_activity keeps the statement's first kilobyte: its lookups' names, not the lock's end.)
    expect(waiting).toContain('parties_found');

    const merged = await merging;
    expect(merged.status).toBe(200);
    expect(merged.body.party_id).toBe(partyId);
    // The holder's change is kept (the merge read the party after the lock) and the push's is added.
    expect(merged.body.prospect).toMatchObject({ email: 'lotte@example.be', telephonenr: '+32 470 00 00 02' });
  });

  it('merges the tenth push as the second: one version each, the same lead', async () => {
    const versions: string[] = [];
    let leadId: string | undefined;
    for (let i = 0; i < 10; i++) {
      const pushed = await pushLead(server, tenant, 'customers', { prospect: prospect(`+32 470 00 01 ${10 + i}`) });
      expect(pushed.status).toBe(200);
      leadId ??= pushed.body.id;
      expect(pushed.body.id).toBe(leadId);
      const read = await callApi(server, tenant, 'GET', `/distributions/${tenant.distributionId}/leads/${leadId}`);
      expect(read.body.prospect.telephonenr).toBe(`+32 470 00 01 ${10 + i}`);
      versions.push(read.headers.get('etag')!);
    }
    // A new version each time: every push merged once.
    expect(new Set(versions).size).toBe(10);
  });
});
