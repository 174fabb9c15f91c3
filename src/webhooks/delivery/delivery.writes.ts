// What the delivery worker writes, each call one transaction: a claim, a batch of attempt
// results, claims given back, revoked claims forgotten. In the worker's own thread they go
// through its transaction runner; the webhook thread on SQLite sends them to the server's
// thread instead (webhook.thread.ts), whose runner commits them with the pushes: SQLite has
// one writer, and a second connection writing beside it would make the server's event loop
// wait for the lock (a `begin immediate` of 2.3 ms on average under (d), measured).
import type { Dialect } from '../../db/database.ts';
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

export class TransactionalDeliveryWrites implements DeliveryWrites {
  readonly #transactions: TransactionRunner;
  readonly #dialect: Dialect;

  constructor(transactions: TransactionRunner, dialect: Dialect) {
    this.#transactions = transactions;
    this.#dialect = dialect;
  }

  claim(claim: Claim, waiting: readonly ClaimRef[]) {
    return this.#transactions.run(async (trx) => {
      const claimed = await claimDue(trx, this.#dialect, claim);
      const revoked = await revokedAmong(trx, waiting);
      return {
        claimed,
        revoked: waiting.map((d) => claimKey(d.id, d.claim_id)).filter((key) => revoked.has(key)),
      };
    });
  }

  async record(records: readonly AttemptRecord[]): Promise<string[]> {
    return [...(await this.#transactions.run((trx) => recordAttempts(trx, records)))];
  }

  release(deliveries: readonly ClaimRef[]): Promise<void> {
    return this.#transactions.run((trx) => releaseClaims(trx, deliveries));
  }

  forgetRevoked(deliveries: readonly ClaimRef[]): Promise<void> {
    return this.#transactions.run(async (trx) => {
      for (const delivery of deliveries) await forgetRevokedClaim(trx, delivery);
    });
  }
}
