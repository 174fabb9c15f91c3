// Round-robin routing writes no row that every push writes (docs/design.md, "Routing's
// turns"): on PostgreSQL a turn comes from the rule's sequence, never from a counter in the
// rule's row, so new leads under one rule, pushed at once to two processes, do not queue
// behind each other. Shown with the rule rows (and, as in test/push-shared-rows.test.ts, the
// inbox projector's mark) held FOR UPDATE by another transaction: 60 pushes all answer meanwhile, no backend of this schema is seen waiting for a lock, and
// each of the 3 users has 20 of the 60 leads.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setRoutingRules } from '../src/party/index.ts';
import { createUser } from '../src/sso/index.ts';
import { pushLead } from './support/lead-client.ts';
import { firstLeadsCounted, holdRows, sampleLockWaits } from './support/lock-waits.ts';
import { startServerProcess, type ServerProcess } from './support/server-process.ts';
import { PASSWORD } from './support/sso.ts';
import { createTenant, createTestDatabase, dialect, type Tenant, type TestDatabase } from './support/test-server.ts';

const N = 3;
const K = 20;

describe.skipIf(dialect !== 'postgres')('round-robin routing on PostgreSQL', () => {
  let database: TestDatabase;
  let tenant: Tenant;
  let servers: ServerProcess[] = [];
  let holder: pg.Client;
  let sampler: pg.Client;
  const users: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    tenant = await createTenant(database.handle, ['leads:write', 'leads:read']);
    for (const name of ['ann', 'bob', 'cas'])
      users.push(
        (
          await createUser(database.handle.db, {
            distributionId: tenant.distributionId,
            email: `${name}@example.be`,
            username: name,
            password: PASSWORD,
          })
        ).id,
      );
    await setRoutingRules(
      database.handle.db,
      tenant.distributionId,
      JSON.stringify({ rules: [{ when: {}, assign: { round_robin: users } }] }),
    );
    servers = await Promise.all(
      [0, 1].map(() => startServerProcess({ ...database.env, RATE_LIMIT: 'off', WEBHOOK_WORKER: 'false' })),
    );
    holder = new pg.Client({ connectionString: database.env.DATABASE_URL });
    sampler = new pg.Client({ connectionString: database.env.DATABASE_URL });
    await Promise.all([holder.connect(), sampler.connect()]);
  }, 90_000);
  afterAll(async () => {
    await Promise.all([holder?.end(), sampler?.end()]);
    await Promise.all(servers.map((server) => server.stop()));
    await database?.drop();
  });

  it('takes turns without a row lock: 60 new leads from two processes answer while the rule rows are held, none waits, each user has 20', async () => {
    // Each process reads the rules on its first push, before the rows are held.
    for (const server of servers)
      expect(
        (await pushLead(server, tenant, 'customers', { prospect: { first_name: 'First', last_name: 'Lead' } })).status,
      ).toBe(201);

    // The first leads counted by a projector: the distribution's mark and counts exist. Both
    // processes' projectors then race to write them the first time and wait for each other
    // (not a push: background work, once); with the mark held below they pass it over.
    await firstLeadsCounted(database.handle.db, tenant.distributionId);

    const { rows, holderPid } = await holdRows(
      holder,
      `select (select count(*) from (select 1 from routing_rules where distribution_id = $1 for update) r)
        + (select count(*) from (select 1 from lead_projections where distribution_id = $1 for update) p) as rows`,
      [tenant.distributionId],
    );
    expect(rows).toBe(2);

    // As test/push-shared-rows.test.ts: backends of this schema waiting for a row or a table,
    // storage locks (a file growing, a GIN pending list) left out.
    const stopSampling = sampleLockWaits(sampler, holderPid);
    const replies = await Promise.all(
      Array.from({ length: K * N }, (_, i) =>
        pushLead(servers[i % 2]!, tenant, 'customers', {
          prospect: { first_name: 'Turn', last_name: `T${i}`, external_refs: [{ external_ref: `TURN-${i}` }] },
        }),
      ),
    );
    const { samples, waits } = await stopSampling();
    await holder.query('commit');

    expect(replies.map((reply) => reply.status)).toEqual(Array.from({ length: K * N }, () => 201));
    expect(samples).toBeGreaterThan(0);
    expect(waits).toEqual([]);
    // The two first leads took turns 1 and 2; the 60 after them took 3 to 62: 20 each.
    const perUser = new Map<string, number>();
    for (const reply of replies) perUser.set(reply.body.assignee, (perUser.get(reply.body.assignee) ?? 0) + 1);
    expect(Object.fromEntries(perUser)).toEqual(Object.fromEntries(users.map((id) => [id, K])));
    const stored = await database.handle.db
      .selectFrom('leads')
      .select(['assignee_id'])
      .where('distribution_id', '=', tenant.distributionId)
      .where('assignee_id', 'is not', null)
      .execute();
    expect(stored).toHaveLength(K * N + 2);
  }, 90_000);
});
