// Claiming due deliveries (docs/design.md section 5): workers that claim side by side never
// take the same delivery twice. On PostgreSQL a claim that read the queue before another
// worker's claim committed must not take that worker's rows once their locks are released.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { newRowId } from '../src/db/ids.ts';
import type { LeadResponse } from '../src/party/index.ts';
import { createTransactionRunner, type TransactionRunner } from '../src/db/transaction-runner.ts';
import { deliveryWrites } from '../src/webhooks/delivery/delivery.writes.ts';
import { WebhookOutbox } from '../src/webhooks/webhook.outbox.ts';
import { createTenant, createTestDatabase, dialect, type Tenant, type TestDatabase } from './support/test-server.ts';

let database: TestDatabase;
let tenant: Tenant;
let transactions: TransactionRunner;

beforeAll(async () => {
  database = await createTestDatabase();
  tenant = await createTenant(database.handle, ['leads:write']);
  transactions = createTransactionRunner(database.handle);
});
afterAll(async () => {
  await transactions?.close();
  await database?.drop();
});

/**
 * `count` due deliveries of one event, written by the outbox as a push writes them, to
 * receivers on 7 hosts. Only the fields the outbox reads of the lead are given.
 */
async function queueDeliveries(count: number, at: string): Promise<void> {
  const callbacks = Array.from({ length: count }, (_, i) => `http://receiver-${i % 7}.example/hook/${i}`);
  const lead = { id: newRowId(), party_id: newRowId(), prospect: { callbacks } } as unknown as LeadResponse;
  await new WebhookOutbox().record(database.handle.db, {
    type: 'lead.created',
    lead,
    distributionId: tenant.distributionId,
    at,
  });
}

// The race needs one claim's read to fall before another's commit and its lock after it: many
// small claims over several rounds make that all but certain to happen (before the fix, most runs caught it).
it('gives each due delivery to one of several workers claiming at once', async () => {
  for (let round = 0; round < 10; round++) {
    const count = 300;
    const now = new Date().toISOString();
    await queueDeliveries(count, now);
    const leaseUntil = new Date(Date.now() + 3_600_000).toISOString();
    const claimedBy = new Map<string, string>();
    const duplicates: string[] = [];
    // As many workers as the pool has connections (SQLite runs them one after another).
    const workers = dialect === 'postgres' ? 8 : 2;
    // Each claims as a worker does: on PostgreSQL one statement on the pool, no transaction.
    const writes = deliveryWrites(database.handle, transactions);
    await Promise.all(
      Array.from({ length: workers }, async () => {
        for (;;) {
          const claim = { now, leaseUntil, claimId: newRowId(), limit: 2, perHost: 10, busyHosts: [] };
          const { claimed } = await writes.claim(claim, []);
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
