// PLACEHOLDER: being written (matching, merge, revisions).
import type { Config } from '../config.ts';
import type { DatabaseHandle } from '../db/database.ts';
import type { TransactionRunner } from '../db/transaction-runner.ts';
import type { Caller } from '../auth/caller.ts';
import type { LeadBody } from './lead.schema.ts';
import type { LeadResponse } from './lead.response.ts';
import type { PartyType } from './lead.table.ts';

export interface PushCommand {
  readonly distributionId: string;
  readonly kind: PartyType;
  readonly body: LeadBody;
  readonly rawBody: string;
  readonly caller: Caller;
}

export interface PushResult {
  readonly created: boolean;
  /** False when a merge found nothing new to store. */
  readonly changed: boolean;
  readonly lead: LeadResponse;
}

export class LeadService {
  readonly #deps: { database: DatabaseHandle; config: Config; transactions: TransactionRunner };
  constructor(deps: { database: DatabaseHandle; config: Config; transactions: TransactionRunner }) {
    this.#deps = deps;
  }
  async push(_command: PushCommand): Promise<PushResult> {
    throw new Error('not implemented');
  }
  async close(): Promise<void> {
    await this.#deps.transactions.close();
  }
}
