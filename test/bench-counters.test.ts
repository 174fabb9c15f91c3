// The benchmark counts what a push costs from outside the server (bench/push-cost.ts: the
// PostgreSQL wire, node:sqlite's calls, the SQLite WAL index), so that a revision which
// counted nothing itself is counted too. Here those counts are held against what this
// code's server counts itself, on this project's database.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { withBenchServer } from '../bench/bench-server.ts';
import { SQLITE_FILE } from '../bench/database.ts';
import { minimalBodies } from '../bench/payloads.ts';
import { countPushCost, PUSHES } from '../bench/push-cost.ts';
import { PUSH_SCENARIOS } from '../bench/push-scenarios.ts';
import { CURRENT_CODE } from '../bench/server-code.ts';
import { watchWal } from '../bench/sqlite-wal.ts';
import { dialect } from './support/test-server.ts';

const postgresUrl = process.env.TEST_DATABASE_URL ?? '';

/** What the benchmark counts of pushes of scenario `key` on this project's database. */
const costOf = (key: string) =>
  countPushCost(CURRENT_CODE, dialect, PUSH_SCENARIOS.find((s) => s.key === key)!, postgresUrl);

describe('what the benchmark counts of a push', () => {
  it('counts the statements the server counts itself, and on PostgreSQL a round trip each', async () => {
    const cost = await costOf('a');
    expect(cost.serverStatements).not.toBeNull();
    // The server's count also holds the statements of the /metrics answer that reads it.
    expect(Math.abs(Math.round((cost.statements! - cost.serverStatements!) * PUSHES))).toBeLessThanOrEqual(1);
    expect(cost.statements).toBeGreaterThan(2);
    if (dialect === 'postgres') expect(cost.roundTrips).toBe(cost.statements);
    // A new lead is at least its party, its lead, its external ref and its push log entry.
    expect(cost.rows).toBeGreaterThanOrEqual(4);
    // A database, a server process and 25 pushes, as the other multi-process tests allow for.
  }, 90_000);

  // Issue 34: a merge's lookup locks its party, a push's outbox rows are one statement, a
  // keyed push takes its key's lock and reads its row in the push's lookup, a push whose
  // API token the server has seen live reads the token's row in its lookup too, and a merge
  // updates the party and the lead in the statement of its new rows. On the code before: 5,
  // 8, 8, 8.
  it.runIf(dialect === 'postgres')(
    'counts a round trip fewer per push, three fewer per merge, three fewer per push with a callback and four with an Idempotency-Key, than before (PostgreSQL: 4, 5, 5, 4)',
    async () => {
      const trips = async (key: string) => (await costOf(key)).roundTrips;
      // Begin, the lookup (with the token's row), the rows, commit; a merge also loads the lead
      // (its head's update goes with the rows);
      // a callback adds the outbox; an Idempotency-Key adds none (its lock and row come with
      // the lookup, its answer with the rows). The counted pushes follow five uncounted ones,
      // so the token is known.
      expect([await trips('a'), await trips('c'), await trips('d'), await trips('keyed')]).toEqual([4, 5, 5, 4]);
    },
    180_000,
  );

  // Issue 34: a push whose API token the server has seen live reads the token's row in its
  // lookup, and a keyed push its key's row too. On the code before: 8 and 10.
  it.runIf(dialect === 'sqlite')(
    'counts a statement fewer per push, two fewer per push with an Idempotency-Key, than before (SQLite: 7, 8)',
    async () => {
      const statements = async (key: string) => (await costOf(key)).statements;
      // Begin, the lookup (with the token's row and the key's), the party, the lead, its ref,
      // the push log, commit; an Idempotency-Key adds its answer.
      expect([await statements('a'), await statements('keyed')]).toEqual([7, 8]);
    },
    180_000,
  );

  it.runIf(dialect === 'sqlite')(
    'counts WAL bytes that only grow, although checkpoints run between the pushes',
    async () => {
      await withBenchServer(
        { engine: 'sqlite', postgresUrl, pinning: { enabled: false }, env: { WEBHOOK_WORKER: 'false' } },
        async (server) => {
          const next = minimalBodies('wal');
          const push = async () => {
            const response = await fetch(`${server.url}${server.pushPath}`, {
              method: 'POST',
              headers: { authorization: `apikey ${server.token}`, 'content-type': 'application/json' },
              body: next(),
            });
            expect(response.status).toBe(201);
          };
          await push();
          const file = path.join(server.database.env.DATA_DIR!, SQLITE_FILE);
          const wal = watchWal(server.database.env.DATA_DIR!);
          try {
            const totals: number[] = [];
            for (let i = 0; i < 5; i++) {
              await push();
              // Another process's checkpoint, as the server's own are: were the watch's read lock
              // lost, it would copy the whole WAL back and the next push would start it over.
              execFileSync(process.execPath, [
                '-e',
                `new (require('node:sqlite').DatabaseSync)(${JSON.stringify(file)}).prepare('pragma wal_checkpoint(passive)').get()`,
              ]);
              totals.push(wal.bytes());
            }
            for (const [i, total] of totals.entries()) expect(total).toBeGreaterThan(i === 0 ? 0 : totals[i - 1]!);
          } finally {
            wal.release();
          }
        },
      );
    },
  );
});
