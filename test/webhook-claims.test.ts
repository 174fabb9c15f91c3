// Claiming due deliveries (docs/design.md section 5): workers that claim side by side never
// take the same delivery twice. On PostgreSQL a claim that read the queue before another
// worker's claim committed must not take that worker's rows once their locks are released.
import fc from 'fast-check';
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

const HOSTS = ['', 'a.example', 'b.example', 'c.example:8080'];
const BASE = Date.parse('2026-11-29T12:00:00.000Z');
const at = (seconds: number) => new Date(BASE + seconds * 1000).toISOString();

interface QueuedRow {
  readonly id: string;
  readonly host: string;
  readonly status: 'pending' | 'delivered' | 'failed';
  readonly next: string;
}

/**
 * What the claim takes, as the ranking it replaced (issue 34) defined it: of the pending
 * rows due at `now` whose host is not busy, each host's first `perHost` (oldest first, then
 * by id), and of those the oldest `limit`.
 */
function expectedClaim(
  rows: readonly QueuedRow[],
  now: string,
  limit: number,
  perHost: number,
  busy: readonly string[],
) {
  const order = (a: QueuedRow, b: QueuedRow) => a.next.localeCompare(b.next) || a.id.localeCompare(b.id);
  const due = rows.filter((row) => row.status === 'pending' && row.next <= now && !busy.includes(row.host));
  const kept = HOSTS.flatMap((host) =>
    due
      .filter((row) => row.host === host)
      .sort(order)
      .slice(0, perHost),
  );
  return kept
    .sort(order)
    .slice(0, limit)
    .map((row) => row.id);
}

// The claim reads each host's first due rows from an index, host after host (migration
// 2026-11-30T11-00), where it ranked every due row: the same rows, over queues of every shape.
it('claims what ranking every due delivery by host would: each host its first perHost, the oldest limit of them', async () => {
  await queueDeliveries(1, at(0));
  const db = database.handle.db;
  const { id: eventId } = await db.selectFrom('webhook_events').select('id').orderBy('id').executeTakeFirstOrThrow();
  const writes = deliveryWrites(database.handle, transactions);
  const row = fc.record({
    host: fc.constantFrom(...HOSTS),
    status: fc.constantFrom('pending', 'pending', 'pending', 'delivered', 'failed'),
    // Seconds from BASE: due at `now` (30) or not yet, ties included.
    offset: fc.integer({ min: 0, max: 40 }),
  });
  await fc.assert(
    fc.asyncProperty(
      fc.array(row, { maxLength: 40 }),
      fc.integer({ min: 1, max: 8 }),
      fc.integer({ min: 1, max: 4 }),
      fc.subarray(HOSTS),
      async (drawn, limit, perHost, busy) => {
        await db.deleteFrom('webhook_attempts').execute();
        await db.deleteFrom('webhook_deliveries').execute();
        const rows: QueuedRow[] = drawn.map((r, i) => ({
          id: `dlv${String(i).padStart(4, '0')}`,
          host: r.host,
          status: r.status as QueuedRow['status'],
          next: at(r.offset),
        }));
        if (rows.length > 0)
          await db
            .insertInto('webhook_deliveries')
            .values(
              rows.map((r) => ({
                id: r.id,
                event_id: eventId,
                distribution_id: tenant.distributionId,
                url: `http://${r.host || 'localhost'}/hook`,
                host: r.host,
                status: r.status,
                next_attempt_at: r.next,
                claim_id: null,
                attempts: 0,
                round_start: 0,
                last_status_code: null,
                last_error: null,
                created_at: at(0),
                updated_at: at(0),
              })),
            )
            .execute();
        const now = at(30);
        const claim = { now, leaseUntil: at(3600), claimId: newRowId(), limit, perHost, busyHosts: busy };
        const { claimed } = await writes.claim(claim, []);
        // Which rows, not in what order: an UPDATE returns them in the order it met them.
        expect(claimed.map((delivery) => delivery.id).sort()).toEqual(
          expectedClaim(rows, now, limit, perHost, busy).sort(),
        );
      },
    ),
    { numRuns: 60 },
  );
});
