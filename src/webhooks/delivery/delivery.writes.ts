// What the delivery worker writes, each call atomic: a claim, a batch of attempt results,
// claims given back, revoked claims forgotten. On SQLite they go through the transaction
// runner, whose group commit shares a commit with the pushes; the webhook thread on SQLite
// sends them to the server's thread (webhook.thread.ts), whose runner commits them: SQLite has
// one writer, and a second connection writing beside it would make the server's event loop
// wait for the lock (a `begin immediate` of 2.3 ms on average under (d), measured). On
// PostgreSQL a claim and a batch of results are each one statement on the pool, atomic
// without a transaction around it: a round trip each instead of four or five (BEGIN, the
// statements, COMMIT), which under push load cost the pushes the database's CPU.
import type { Kysely } from 'kysely';
import type { Database, DatabaseHandle } from '../../db/database.ts';
import type { TransactionRunner } from '../../db/transaction-runner.ts';
import { claimKey, forgetRevokedClaim, revokedAmong } from './claim-revocation.repository.ts';
import {
  type AttemptRecord,
  type Claim,
  type ClaimedDelivery,
  claimDue,
  recordAttempts,
  releaseClaims,
} from './delivery.repository.ts';

export type ClaimRef = Pick<ClaimedDelivery, 'id' | 'claim_id'>;

export interface DeliveryWrites {
  /** Claims due deliveries, and says which of `waiting` (claimed before) an erasure took back since: their claimKeys. */
  claim(claim: Claim, waiting: readonly ClaimRef[]): Promise<{ claimed: ClaimedDelivery[]; revoked: string[] }>;
  /** The ids of the deliveries recorded (the claim still held). */
  record(records: readonly AttemptRecord[]): Promise<string[]>;
  release(deliveries: readonly ClaimRef[]): Promise<void>;
  forgetRevoked(deliveries: readonly ClaimRef[]): Promise<void>;
}

/** Each write keeps nothing but its rows and what it returns: group commit may run it again (transaction-runner.ts). */
const RERUNNABLE = { rerunnable: true } as const;

export class TransactionalDeliveryWrites implements DeliveryWrites {
  readonly #transactions: TransactionRunner;

  constructor(transactions: TransactionRunner) {
    this.#transactions = transactions;
  }

  claim(claim: Claim, waiting: readonly ClaimRef[]) {
    return this.#transactions.run(async (trx) => {
      const claimed = await claimDue(trx, claim);
      const revoked = await revokedAmong(trx, waiting);
      return {
        claimed,
        revoked: waiting.map((d) => claimKey(d.id, d.claim_id)).filter((key) => revoked.has(key)),
      };
    }, RERUNNABLE);
  }

  async record(records: readonly AttemptRecord[]): Promise<string[]> {
    return [...(await this.#transactions.run((trx) => recordAttempts(trx, records), RERUNNABLE))];
  }

  release(deliveries: readonly ClaimRef[]): Promise<void> {
    return this.#transactions.run((trx) => releaseClaims(trx, deliveries), RERUNNABLE);
  }

  forgetRevoked(deliveries: readonly ClaimRef[]): Promise<void> {
    return this.#transactions.run(async (trx) => {
      for (const delivery of deliveries) await forgetRevokedClaim(trx, delivery);
    }, RERUNNABLE);
  }
}

/** PostgreSQL: a claim and a batch of results each one statement on the pool (above). */
class PostgresDeliveryWrites extends TransactionalDeliveryWrites {
  readonly #pool: Kysely<Database>;

  constructor(transactions: TransactionRunner, pool: Kysely<Database>) {
    super(transactions);
    this.#pool = pool;
  }

  // The revoked claims are read after the claim, as the transaction read them: under READ
  // COMMITTED each statement sees what was committed when it began either way.
  override async claim(claim: Claim, waiting: readonly ClaimRef[]) {
    const claimed = await claimDue(this.#pool, claim);
    const revoked = await revokedAmong(this.#pool, waiting);
    return { claimed, revoked: waiting.map((d) => claimKey(d.id, d.claim_id)).filter((key) => revoked.has(key)) };
  }

  // A 410 stops its URL in a statement of its own, written in one transaction with the result.
  // Otherwise one statement, and revoked claims whose delivery was not recorded forgotten after
  // it, one statement each (what the erasure waits for; it forgets them itself after the lease).
  override async record(records: readonly AttemptRecord[]): Promise<string[]> {
    if (records.some((record) => record.stopUrl)) return super.record(records);
    return [...(await recordAttempts(this.#pool, records))];
  }
}

/** The writes of a worker that runs its own (not the webhook thread's on SQLite). */
export function deliveryWrites(database: DatabaseHandle, transactions: TransactionRunner): DeliveryWrites {
  return database.dialect === 'postgres'
    ? new PostgresDeliveryWrites(transactions, database.db)
    : new TransactionalDeliveryWrites(transactions);
}
