// A partner that keeps in sync (docs/design.md section 9): it follows
// `GET .../leads?updated_since=` page by page, keeps the newest `updated_at` it saw and asks
// again, while others push. Every lead created meanwhile must reach it, even one whose
// transaction committed after a later-stamped one: on PostgreSQL with two server
// processes (as behind a load balancer), on SQLite with one.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTenant, createTestDatabase, dialect, type Tenant, type TestDatabase } from './support/test-server.ts';
import { startServerProcess, type ServerProcess } from './support/server-process.ts';
import { pushLead } from './support/lead-client.ts';

let database: TestDatabase;
let tenant: Tenant;
let servers: ServerProcess[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  tenant = await createTenant(database.handle, ['leads:write', 'leads:read']);
  const processes = dialect === 'postgres' ? 2 : 1;
  servers = await Promise.all(
    Array.from({ length: processes }, () => startServerProcess({ ...database.env, RATE_LIMIT: 'off' })),
  );
}, 90_000);
afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  await database?.drop();
});

/** Reads from `since` to the end of the listing; returns the ids seen and the newest updated_at. */
async function readToEnd(server: ServerProcess, since: string, seen: Set<string>): Promise<string> {
  let newest = since;
  let url: string | null =
    `${server.url}/v1/api/distributions/${tenant.distributionId}/leads?limit=100&updated_since=${encodeURIComponent(since)}`;
  while (url) {
    const response: Response = await fetch(url, { headers: { authorization: `apikey ${tenant.token}` } });
    expect(response.status).toBe(200);
    const page = (await response.json()) as { items: Array<{ id: string; updated_at: string }>; next: string | null };
    for (const lead of page.items) {
      seen.add(lead.id);
      if (lead.updated_at > newest) newest = lead.updated_at;
    }
    url = page.next ? `${server.url}${new URL(page.next).pathname}${new URL(page.next).search}` : null;
  }
  return newest;
}

/** Leads pushed while the follower reads: the ones committed late among them are the test. */
const PUSHES = 500;

it('lets a follower that keeps the newest updated_at it saw miss no lead pushed meanwhile', async () => {
  const created = new Set<string>();
  const seen = new Set<string>();
  // The pushers stop once they have created PUSHES leads, not after a fixed time, which a
  // slow machine would spend on fewer pushes; the follower reads all the while.
  const pushing = () => created.size < PUSHES;
  const pushers = Array.from({ length: 8 }, async (_, pusher) => {
    for (let i = 0; pushing(); i++) {
      const reply = await pushLead(servers[(pusher + i) % servers.length]!, tenant, 'customers', {
        prospect: { first_name: 'Sync', last_name: `P${pusher}-${i}` },
      });
      expect(reply.status).toBe(201);
      created.add(reply.body.id);
    }
  });
  // A pusher that failed stops the others' count from being reached: the follower stops too.
  let settled = false;
  void Promise.allSettled(pushers).then(() => (settled = true));
  const follower = (async () => {
    let since = '2000-01-01T00:00:00.000Z';
    for (let i = 0; pushing() && !settled; i++) since = await readToEnd(servers[i % servers.length]!, since, seen);
    // Pushes sent before the stop may still be in flight: wait for every answer, then two more
    // passes from where it stopped.
    await Promise.all(pushers);
    since = await readToEnd(servers[0]!, since, seen);
    await readToEnd(servers[servers.length - 1]!, since, seen);
  })();
  await Promise.all(pushers);
  await follower;
  expect(created.size).toBeGreaterThan(100);
  expect([...created].filter((id) => !seen.has(id))).toEqual([]);
}, 60_000);
