// A push with an Idempotency-Key on PostgreSQL takes the key's lock and reads its row in the
// push's own lookup statement (issue 34: a round trip fewer, test/bench-counters.test.ts).
// What that must not change: while another request holds the key, the push is refused with
// 409 at once, even when that other transaction also holds the party the push would merge
// into (the lookup locks the party only once it has the key); the same request after it is
// replayed byte for byte, and a new key merges, ten times over, a version each.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi } from './support/api-client.ts';
import { pushLead } from './support/lead-client.ts';
import { createTenant, dialect, startTestServer, type Tenant, type TestServer } from './support/test-server.ts';

/** The key's advisory lock class (idempotency.repository.ts, KEY_LOCK_CLASS: 'keys'). */
const KEY_LOCK_CLASS = 0x6b657973;

describe.runIf(dialect === 'postgres')('the Idempotency-Key read in the push’s lookup (PostgreSQL)', () => {
  let server: TestServer;
  let tenant: Tenant;
  let holder: pg.Client;

  beforeAll(async () => {
    server = await startTestServer();
    tenant = await createTenant(server.database.handle, ['leads:write', 'leads:read']);
    holder = new pg.Client({ connectionString: server.database.env.DATABASE_URL });
    await holder.connect();
  });
  afterAll(async () => {
    await holder?.end();
    await server?.close();
  });

  const prospect = (telephonenr: string) => ({
    first_name: 'Wout',
    last_name: 'Claes',
    telephonenr,
    external_refs: [{ external_ref: 'KEY-LOOKUP-1', external_ref_company: 'crm' }],
  });

  it('refuses a push whose key another transaction holds at once, though that one holds its party too', async () => {
    const body = { prospect: prospect('+32 470 10 00 01') };
    const first = await pushLead(server, tenant, 'customers', body, { 'idempotency-key': 'key-lookup-1' });
    expect(first.status).toBe(201);
    const [stored] = (
      await holder.query<{ lookup: string }>('select lookup from idempotency_answers where party_id = $1', [
        first.body.party_id,
      ])
    ).rows;
    expect(stored).toBeDefined();

    // Another transaction holds the key, as a request with it still running would, and the party.
    await holder.query('begin');
    await holder.query('select pg_advisory_xact_lock($1, hashtext(current_schema() || $2))', [
      KEY_LOCK_CLASS,
      stored!.lookup,
    ]);
    await holder.query('select 1 from parties where id = $1 for update', [first.body.party_id]);
    // Answered while the holder is still open: had the lookup locked the party before it knew
    // the key was taken, it would wait for the holder, which only ends after this answer.
    const refused = await pushLead(server, tenant, 'customers', body, { 'idempotency-key': 'key-lookup-1' });
    await holder.query('rollback');
    expect(refused.status).toBe(409);
    expect(refused.body.detail.type).toBe('IdempotencyConflict');
    expect(refused.body.detail.errors[0].target).toBe('Idempotency-Key');
    expect(refused.headers.get('retry-after')).toBe('1');

    // The key free again: the same request is the first one's answer, byte for byte.
    const replayed = await pushLead(server, tenant, 'customers', body, { 'idempotency-key': 'key-lookup-1' });
    expect(replayed.status).toBe(201);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body).toEqual(first.body);
  });

  it('merges a new key’s push ten times over into the same lead, a version each, and replays each', async () => {
    let leadId: string | undefined;
    const versions = new Set<string>();
    for (let i = 0; i < 10; i++) {
      const body = { prospect: prospect(`+32 470 10 01 ${10 + i}`) };
      const pushed = await pushLead(server, tenant, 'customers', body, { 'idempotency-key': `key-lookup-merge-${i}` });
      expect(pushed.status).toBe(200);
      leadId ??= pushed.body.id;
      expect(pushed.body.id).toBe(leadId);
      const read = await callApi(server, tenant, 'GET', `/distributions/${tenant.distributionId}/leads/${leadId}`);
      expect(read.body.prospect.telephonenr).toBe(`+32 470 10 01 ${10 + i}`);
      versions.add(read.headers.get('etag')!);
      const again = await pushLead(server, tenant, 'customers', body, { 'idempotency-key': `key-lookup-merge-${i}` });
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.body).toEqual(pushed.body);
    }
    // A new version each time: every push merged once, none replayed as another's.
    expect(versions.size).toBe(10);
  });
});
