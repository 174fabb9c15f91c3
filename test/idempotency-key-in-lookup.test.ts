// A push with an Idempotency-Key on PostgreSQL takes the key's lock and reads its row in the
// push's own lookup statement (issue 34: a round trip fewer, test/bench-counters.test.ts).
// What that must not change: while another request holds the key, the push is refused with
// 409 at once, even when that other transaction also holds the party the push would merge
// into (the lookup locks the party only once it has the key); the same request after it is
// replayed byte for byte, and a new key merges, ten times over, a version each. A request with
// the key that commits between the lookup's snapshot and the key's lock is met where the
// answer is written (since it rides with the rows' statement, in that statement): 409, and
// nothing of the push stands.
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
  /** Looks at the sessions from outside the holder's transaction (which sees one snapshot of them). */
  let observer: pg.Client;

  beforeAll(async () => {
    server = await startTestServer();
    tenant = await createTenant(server.database.handle, ['leads:write', 'leads:read']);
    holder = new pg.Client({ connectionString: server.database.env.DATABASE_URL });
    await holder.connect();
    observer = new pg.Client({ connectionString: server.database.env.DATABASE_URL });
    await observer.connect();
  });
  afterAll(async () => {
    await holder?.end();
    await observer?.end();
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

  it('refuses a push whose key a request committed between its lookup’s snapshot and its lock, writing nothing', async () => {
    const body = {
      prospect: {
        ...prospect('+32 470 10 02 01'),
        external_refs: [{ external_ref: 'KEY-LOOKUP-2', external_ref_company: 'crm' }],
      },
    };
    const first = await pushLead(server, tenant, 'customers', body, { 'idempotency-key': 'key-lookup-2' });
    expect(first.status).toBe(201);
    const partyId = first.body.party_id;
    // The key's row goes (its answer expired and purged, say): the key is free again.
    const [stored] = (
      await holder.query<{ lookup: string }>('delete from idempotency_answers where party_id = $1 returning lookup', [
        partyId,
      ])
    ).rows;
    const pushesBefore = await pushCount(first.body.id);

    // The push's lookup takes its snapshot, finds the key free and takes its lock, then waits
    // for the party, which another transaction holds. That one writes the key's row with an
    // answer of its own and commits: the row the lookup's snapshot cannot see, as a request
    // with the key that committed between the lookup's snapshot and its lock would have left it.
    await holder.query('begin');
    await holder.query('select 1 from parties where id = $1 for update', [partyId]);
    const changed = { prospect: { ...body.prospect, telephonenr: '+32 470 10 02 02' } };
    const racing = pushLead(server, tenant, 'customers', changed, { 'idempotency-key': 'key-lookup-2' });
    await untilWaitingForALock();
    await holder.query(
      `insert into idempotency_answers (lookup, distribution_id, party_id, fingerprint, state, status, headers, body, created_at, expires_at)
        values ($1, $2, $3, 'another request', 'done', 200, '{}', '{}', $4, $5)`,
      [
        stored!.lookup,
        tenant.distributionId,
        partyId,
        new Date().toISOString(),
        new Date(Date.now() + 86_400_000).toISOString(),
      ],
    );
    await holder.query('commit');

    const refused = await racing;
    expect(refused.status).toBe(409);
    expect(refused.body.detail.type).toBe('IdempotencyConflict');
    // Nothing of the refused push stands: not its merge, not its push log entry.
    const read = await callApi(server, tenant, 'GET', `/distributions/${tenant.distributionId}/leads/${first.body.id}`);
    expect(read.body.prospect.telephonenr).toBe('+32 470 10 02 01');
    expect(read.body.updated_at).toBe(first.body.updated_at);
    expect(await pushCount(first.body.id)).toBe(pushesBefore);
  });

  async function pushCount(leadId: string): Promise<number> {
    const { rows } = await holder.query<{ n: number }>(
      'select count(*)::int as n from lead_pushes where lead_id = $1',
      [leadId],
    );
    return rows[0]!.n;
  }

  /** Until a session of the test's database waits for a lock another one holds. */
  async function untilWaitingForALock(): Promise<void> {
    for (;;) {
      const { rows } = await observer.query<{ n: number }>(
        "select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
      );
      if (rows[0]!.n > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

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
