// No hot rows (docs/design.md section 13, "How far behind the inbox may be"): a push of a new
// lead writes and locks no row that other pushes of its distribution write too, so on
// PostgreSQL concurrent pushes from several processes never queue behind each other's row
// locks. Shown with the distribution's shared rows held by another transaction (its counts
// per status and the inbox projector's mark locked for update, the distribution itself for
// any update that keeps its key): 50 pushes from two processes all answer meanwhile, and
// no backend of this schema is seen waiting for a lock (pg_locks) while they run.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushLead } from './support/lead-client.ts';
import { firstLeadsCounted, holdRows, sampleLockWaits } from './support/lock-waits.ts';
import { startServerProcess, type ServerProcess } from './support/server-process.ts';
import { createTenant, createTestDatabase, dialect, type Tenant, type TestDatabase } from './support/test-server.ts';

const PUSHES = 50;

describe.skipIf(dialect !== 'postgres')('pushes into one distribution on PostgreSQL', () => {
  let database: TestDatabase;
  let tenant: Tenant;
  let servers: ServerProcess[] = [];
  let holder: pg.Client;
  let sampler: pg.Client;

  beforeAll(async () => {
    database = await createTestDatabase();
    tenant = await createTenant(database.handle, ['leads:write', 'leads:read']);
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

  it('share no row a push writes: 50 at once from two processes answer while the shared rows are held, and none waits', async () => {
    // A first lead, counted by a projector: the distribution's counts row and mark exist.
    expect(
      (await pushLead(servers[0]!, tenant, 'customers', { prospect: { first_name: 'First', last_name: 'Lead' } }))
        .status,
    ).toBe(201);
    await firstLeadsCounted(database.handle.db, tenant.distributionId);

    const { rows, holderPid } = await holdRows(
      holder,
      `select (select count(*) from (select 1 from lead_status_counts where distribution_id = $1 for update) c)
        + (select count(*) from (select 1 from lead_projections where distribution_id = $1 for update) p)
        + (select count(*) from (select 1 from distributions where id = $1 for no key update) d) as rows`,
      [tenant.distributionId],
    );
    expect(rows).toBe(3);

    // Backends of this schema's servers waiting for a row or a table (storage locks left out).
    const stopSampling = sampleLockWaits(sampler, holderPid);
    const replies = await Promise.all(
      Array.from({ length: PUSHES }, (_, i) =>
        pushLead(servers[i % 2]!, tenant, 'customers', {
          prospect: {
            first_name: 'Concurrent',
            last_name: `P${i}`,
            external_refs: [{ external_ref: `HOT-${i}`, external_ref_company: 'crm' }],
          },
        }),
      ),
    );
    const { samples, waits } = await stopSampling();
    await holder.query('commit');

    expect(replies.map((reply) => reply.status)).toEqual(Array.from({ length: PUSHES }, () => 201));
    expect(samples).toBeGreaterThan(0);
    expect(waits).toEqual([]);
  }, 90_000);
});
