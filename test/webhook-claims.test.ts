// Claiming due deliveries (docs/design.md section 5): workers that claim side by side never
// take the same delivery twice. On PostgreSQL a claim that read the queue before another
// worker's claim committed must not take that worker's rows once their locks are released.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { newRowId } from '../src/db/ids.ts';
import { claimDue } from '../src/webhooks/delivery.repository.ts';
import { createTenant, createTestDatabase, dialect, type Tenant, type TestDatabase } from './support/test-server.ts';

let database: TestDatabase;
let tenant: Tenant;

beforeAll(async () => {
  database = await createTestDatabase();
  tenant = await createTenant(database.handle, ['leads:write']);
});
afterAll(async () => {
  await database?.drop();
});

async function queueDeliveries(count: number, at: string): Promise<void> {
  const eventId = newRowId();
  await database.handle.db
    .insertInto('webhook_events')
    .values({
      id: eventId,
      distribution_id: tenant.distributionId,
      type: 'lead.created',
      lead_id: newRowId(),
      party_id: newRowId(),
      payload: '{}',
      created_at: at,
    })
    .execute();
  await database.handle.db
    .insertInto('webhook_deliveries')
    .values(
      Array.from({ length: count }, (_, i) => ({
        id: newRowId(),
        event_id: eventId,
        distribution_id: tenant.distributionId,
        url: `http://receiver-${i % 7}.example/hook`,
        host: `receiver-${i % 7}.example`,
        status: 'pending' as const,
        next_attempt_at: at,
        claim_id: null,
        attempts: 0,
        round_start: 0,
        last_status_code: null,
        last_error: null,
        created_at: at,
        updated_at: at,
      })),
    )
    .execute();
}

// The race needs one claim's read to fall before another's commit and its lock after it: many
// small claims over several rounds make that all but certain to happen (before the fix, most runs caught it).
it('gives each due delivery to one of several workers claiming at once', async () => {
  for (let round = 0; round < 5; round++) {
    const count = 300;
    const now = new Date().toISOString();
    await queueDeliveries(count, now);
    const leaseUntil = new Date(Date.now() + 3_600_000).toISOString();
    const claimedBy = new Map<string, string>();
    const duplicates: string[] = [];
    // As many workers as the pool has connections (SQLite runs them one after another).
    const workers = dialect === 'postgres' ? 8 : 2;
    await Promise.all(
      Array.from({ length: workers }, async () => {
        for (;;) {
          const claim = { now, leaseUntil, claimId: newRowId(), limit: 2, perHost: 10, busyHosts: [] };
          const claimed = await database.handle.db
            .transaction()
            .execute((trx) => claimDue(trx, database.handle.dialect, claim));
          if (claimed.length === 0) return;
          for (const delivery of claimed) {
            if (claimedBy.has(delivery.id)) duplicates.push(delivery.id);
            claimedBy.set(delivery.id, claim.claimId);
          }
        }
      }),
    );
    expect(duplicates).toEqual([]);
    expect(claimedBy.size).toBe(count);
  }
});
