// Round-robin routing across processes (docs/design.md section 15): new leads pushed at
// once to two server processes on one PostgreSQL database, after k·N creations each of
// the N users of the rule has exactly k, and every assignment is in its lead's history
// as made by the rule. A creation that loses a race and runs again as a merge gives its
// turn back.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { setRoutingRules } from '../src/party/index.ts';
import { createUser } from '../src/sso/index.ts';
import { pushLead } from './support/lead-client.ts';
import { startServerProcess, type ServerProcess } from './support/server-process.ts';
import { PASSWORD } from './support/sso.ts';
import { createTenant, createTestDatabase, dialect, type Tenant, type TestDatabase } from './support/test-server.ts';

let database: TestDatabase;
let tenant: Tenant;
let servers: ServerProcess[] = [];
const users: string[] = [];
const N = 3;
const K = 20;

beforeAll(async () => {
  if (dialect !== 'postgres') return;
  database = await createTestDatabase();
  const db = database.handle.db;
  tenant = await createTenant(database.handle, ['leads:write']);
  for (const name of ['ann', 'bob', 'cas'])
    users.push(
      (
        await createUser(db, {
          distributionId: tenant.distributionId,
          email: `${name}@example.be`,
          username: name,
          password: PASSWORD,
        })
      ).id,
    );
  await setRoutingRules(
    db,
    tenant.distributionId,
    JSON.stringify({
      rules: [
        { when: { origin: ['elsewhere'] }, assign: { user: users[0] } },
        { when: {}, assign: { round_robin: users } },
      ],
    }),
  );
  // Rules set before the servers start: each reads them on its first push.
  servers = await Promise.all([startServerProcess(database.env), startServerProcess(database.env)]);
}, 90_000);
afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  await database?.drop();
}, 90_000);

it.runIf(dialect === 'postgres')(
  'gives each of N users k of k·N new leads pushed at once to two processes',
  async () => {
    expect(users).toHaveLength(N);
    // Each new lead is sent twice at once, once to each process: one of the two creates it,
    // the other merges into it, some of them after losing the race to create it and running
    // again (rule 10), which gives back the turn the lost attempt took.
    const bodies = Array.from({ length: K * N }, (_, i) => ({
      origin: 'web',
      prospect: { first_name: 'Round', last_name: `Robin ${i}`, external_refs: [{ external_ref: randomUUID() }] },
    }));
    const replies = await Promise.all(
      bodies.flatMap((body) => [
        pushLead(servers[0]!, tenant, 'customers', body),
        pushLead(servers[1]!, tenant, 'customers', body),
      ]),
    );
    expect(
      replies
        .filter((reply) => reply.status !== 201 && reply.status !== 200)
        .map((reply) => `${reply.status} ${JSON.stringify(reply.body)}`),
    ).toEqual([]);
    const created = replies.filter((reply) => reply.status === 201);
    expect(created).toHaveLength(K * N);
    const perUser = new Map<string, number>();
    for (const reply of created) perUser.set(reply.body.assignee, (perUser.get(reply.body.assignee) ?? 0) + 1);
    expect(Object.fromEntries(perUser)).toEqual(Object.fromEntries(users.map((id) => [id, K])));

    const stored = await database.handle.db
      .selectFrom('leads')
      .innerJoin('lead_changes', 'lead_changes.lead_id', 'leads.id')
      .select(['leads.assignee_id', 'lead_changes.caller', 'lead_changes.changes'])
      .where('leads.distribution_id', '=', tenant.distributionId)
      .execute();
    expect(stored).toHaveLength(K * N);
    for (const row of stored) {
      expect(row.caller).toBe('routing:2');
      expect(JSON.parse(row.changes)).toEqual([{ field: 'assignee', after: row.assignee_id }]);
    }
  },
);
