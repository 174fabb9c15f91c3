// An acknowledged push is a committed push: the server answers only after the commit
// (src/db/transaction-runner.ts), so every lead answered 201 must still be there after
// the process is killed without warning (kill -9) and started again on the same data.
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

function push(server: ServerProcess, ref: string): Promise<Response> {
  return fetch(`${server.url}/v1/api/distributions/${tenant.distributionId}/leads/customers`, {
    method: 'POST',
    headers: { authorization: `apikey ${tenant.token}`, 'content-type': 'application/json' },
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
      const response = await push(second, ref);
      expect({ ref, status: response.status, id: ((await response.json()) as { id: string }).id }).toEqual({
        ref,
        status: 200,
        id,
      });
    }
  } finally {
    second.child.kill('SIGTERM');
    await second.exited;
  }
});
