// An acknowledged push is a committed push: the server answers only after the commit
// (src/db/transaction-runner.ts), so every lead answered 201 must still be there after
// the process is killed without warning (kill -9) and started again on the same data, and
// so is the answer kept for its Idempotency-Key; batch items (docs/design.md section 14) alike.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { createTenant, createTestDatabase, type Tenant, type TestDatabase } from './support/test-server.ts';
import { startServerProcess, type ServerProcess } from './support/server-process.ts';

const CONCURRENCY = 30;
const MAX_PUSHES = 2_000;
const MAX_PUSHING_MS = 5_000;
/** The kill comes after this many acknowledgements, or after KILL_AFTER_MS, whichever is first. */
const KILL_AFTER_ACKS = 300;
const KILL_AFTER_MS = 2_500;

let database: TestDatabase;
let tenant: Tenant;

beforeAll(async () => {
  database = await createTestDatabase();
  tenant = await createTenant(database.handle, ['leads:write']);
});
afterAll(async () => {
  await database?.drop();
});

/** Each push carries an Idempotency-Key (its ref): its answer is kept in its own transaction. */
function push(server: ServerProcess, ref: string, key: string | null = ref): Promise<Response> {
  return fetch(`${server.url}/v1/api/distributions/${tenant.distributionId}/leads/customers`, {
    method: 'POST',
    headers: {
      authorization: `apikey ${tenant.token}`,
      'content-type': 'application/json',
      ...(key !== null && { 'idempotency-key': key }),
    },
    body: JSON.stringify({
      prospect: {
        first_name: 'Durable',
        last_name: 'Lead',
        external_refs: [{ external_ref: ref, external_ref_company: 'crm' }],
      },
    }),
    signal: AbortSignal.timeout(10_000),
  });
}

it('keeps every push answered 201 when the server is killed with SIGKILL mid-stream', async () => {
  const run = randomBytes(4).toString('hex');
  const first = await startServerProcess(database.env);
  const acknowledged: Array<{ ref: string; id: string }> = [];
  const unexpected: string[] = [];
  let sent = 0;
  let inFlight = 0;
  let inFlightAtKill = 0;
  let killed = false;
  const kill = () => {
    if (killed) return;
    killed = true;
    inFlightAtKill = inFlight;
    first.child.kill('SIGKILL');
  };
  const timer = setTimeout(kill, KILL_AFTER_MS);
  const deadline = Date.now() + MAX_PUSHING_MS;

  const pushUntilKilled = async () => {
    while (!killed && sent < MAX_PUSHES && Date.now() < deadline) {
      const ref = `durable-${run}-${sent++}`;
      inFlight++;
      try {
        const response = await push(first, ref);
        const body = (await response.json()) as { id: string };
        if (response.status === 201) acknowledged.push({ ref, id: body.id });
        else unexpected.push(`${response.status} for ${ref}`);
        if (acknowledged.length >= KILL_AFTER_ACKS) kill();
      } catch {
        // The server died with this push in flight: never acknowledged, so no promise made.
      } finally {
        inFlight--;
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, pushUntilKilled));
  clearTimeout(timer);
  kill();
  await first.exited;

  expect(unexpected).toEqual([]);
  expect(acknowledged.length).toBeGreaterThan(20);
  // The kill really came mid-stream, with pushes the server had not answered.
  expect(inFlightAtKill).toBeGreaterThan(0);

  const second = await startServerProcess(database.env);
  try {
    const ids = acknowledged.map((a) => a.id);
    const stored = new Set<string>();
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await database.handle.db
        .selectFrom('leads')
        .select('id')
        .where('id', 'in', ids.slice(i, i + 500))
        .execute();
      for (const row of rows) stored.add(row.id);
    }
    expect(ids.filter((id) => !stored.has(id))).toEqual([]);

    // The restarted server knows them too: the same ref merges into the same lead. The
    // last acknowledgements before the kill are the ones most at risk.
    const sample = [...acknowledged.slice(0, 10), ...acknowledged.slice(-20)];
    for (const { ref, id } of sample) {
      const response = await push(second, ref, null);
      expect({ ref, status: response.status, id: ((await response.json()) as { id: string }).id }).toEqual({
        ref,
        status: 200,
        id,
      });
    }
    // A retry with its key is the acknowledged answer itself, kept with the push.
    for (const { ref, id } of sample) {
      const response = await push(second, ref);
      expect({
        ref,
        status: response.status,
        replayed: response.headers.get('idempotent-replayed'),
        id: ((await response.json()) as { id: string }).id,
      }).toEqual({ ref, status: 201, replayed: 'true', id });
    }
  } finally {
    second.child.kill('SIGTERM');
    await second.exited;
  }
});

const BATCH_ITEMS = 10;
/** Items acknowledged before the kill; six batches are in flight at any time. */
const KILL_AFTER_BATCH_ITEMS = 30;

function pushBatch(server: ServerProcess, refs: readonly string[]): Promise<Response> {
  return fetch(`${server.url}/v1/api/distributions/${tenant.distributionId}/leads/batch`, {
    method: 'POST',
    headers: { authorization: `apikey ${tenant.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      leads: refs.map((ref) => ({
        type: 'CUSTOMER',
        prospect: {
          first_name: 'Durable',
          last_name: 'Batch item',
          external_refs: [{ external_ref: ref, external_ref_company: 'crm' }],
          callbacks: ['https://crm.example.com/hooks/durable'],
        },
      })),
    }),
    signal: AbortSignal.timeout(10_000),
  });
}

it('keeps every batch item answered 201, with its webhook event, when the server is killed with SIGKILL mid-stream', async () => {
  const run = randomBytes(4).toString('hex');
  // No worker: the events stay in the outbox, where the test counts them.
  const first = await startServerProcess({ ...database.env, WEBHOOK_WORKER: 'false' });
  const acknowledged: Array<{ ref: string; id: string }> = [];
  const unexpected: string[] = [];
  let batches = 0;
  let inFlight = 0;
  let inFlightAtKill = 0;
  let killed = false;
  const kill = () => {
    if (killed) return;
    killed = true;
    inFlightAtKill = inFlight;
    first.child.kill('SIGKILL');
  };
  // The kill follows acknowledgements, not a clock: on a busy machine a batch's items may
  // take longer, and the kill must still come after some and amid others.
  const pushUntilKilled = async () => {
    while (!killed) {
      const refs = Array.from({ length: BATCH_ITEMS }, (_, i) => `durable-batch-${run}-${batches}-${i}`);
      batches++;
      inFlight++;
      try {
        const response = await pushBatch(first, refs);
        const body = (await response.json()) as { results: Array<{ status: number; lead: { id: string } }> };
        if (response.status !== 200) unexpected.push(`${response.status}`);
        body.results.forEach((result, i) => {
          if (result.status === 201) acknowledged.push({ ref: refs[i]!, id: result.lead.id });
          else unexpected.push(`${result.status} for ${refs[i]}`);
        });
        if (acknowledged.length >= KILL_AFTER_BATCH_ITEMS) kill();
      } catch {
        // The server died with this batch in flight: never acknowledged.
      } finally {
        inFlight--;
      }
    }
  };
  await Promise.all(Array.from({ length: 6 }, pushUntilKilled));
  await first.exited;

  expect(unexpected).toEqual([]);
  expect(acknowledged.length).toBeGreaterThan(20);
  expect(inFlightAtKill).toBeGreaterThan(0);

  const second = await startServerProcess(database.env);
  try {
    const ids = acknowledged.map((a) => a.id);
    const stored = new Set<string>();
    const withEvent = new Set<string>();
    for (let i = 0; i < ids.length; i += 500) {
      const chunk = ids.slice(i, i + 500);
      for (const row of await database.handle.db.selectFrom('leads').select('id').where('id', 'in', chunk).execute())
        stored.add(row.id);
      const events = await database.handle.db
        .selectFrom('webhook_events')
        .select('lead_id')
        .where('lead_id', 'in', chunk)
        .where('type', '=', 'lead.created')
        .execute();
      for (const row of events) withEvent.add(row.lead_id);
    }
    expect(ids.filter((id) => !stored.has(id))).toEqual([]);
    expect(ids.filter((id) => !withEvent.has(id))).toEqual([]);
    // The last items acknowledged before the kill merge into their leads on the restarted server.
    const sample = acknowledged.slice(-BATCH_ITEMS);
    const response = await pushBatch(
      second,
      sample.map((item) => item.ref),
    );
    const body = (await response.json()) as { results: Array<{ status: number; lead: { id: string } }> };
    expect(body.results.map((result) => [result.status, result.lead.id])).toEqual(sample.map((item) => [200, item.id]));
  } finally {
    second.child.kill('SIGTERM');
    await second.exited;
  }
});
