// Erasing a person (docs/design.md section 15; docs/personal-data.md, "Personal data"):
// one transaction locks the party, deletes its rows from every table of the registry
// (party-rows.repository.ts), leaves a tombstone with keyed hashes of its external refs,
// writes the `lead.erased` event to its callbacks and the audit entry. A failure anywhere
// rolls all of it back: the person stays whole. Once committed, SQLite's WAL is
// checkpointed so the files no longer hold the erased text.
import type { Kysely } from 'kysely';
import type { Database, DatabaseHandle } from '../../db/database.ts';
import { newRowId } from '../../db/ids.ts';
import { checkpointAfterErasure } from './physical-erasure.repository.ts';
import type { TransactionRunner } from '../../db/transaction-runner.ts';
import { commitWrite } from '../../db/write.ts';
import type { RevokedClaim, WebhookOutbox } from '../../webhooks/webhook.outbox.ts';
import { writeClock } from '../store/change-clock.repository.ts';
import { stampAfter } from '../store/lead-stamp.ts';
import { insertAudit } from './audit-log.repository.ts';
import { findErasedParty, insertTombstone } from './tombstone.repository.ts';
import { missingParty } from './erased-or-unknown.ts';
import { loadLeadForUpdate } from '../store/lead-load.repository.ts';
import { callbacksOnlyTheirs } from './erased-callbacks.repository.ts';
import { deletePartyRows } from './party-rows.repository.ts';
import type { RefHasher } from './ref-hash.ts';
import type { RefHashes } from './ref-hashes.service.ts';

export interface ErasureCommand {
  readonly distributionId: string;
  readonly partyId: string;
  /** Who erases: `token:<id>`, `user:<id>`, `cli` or `retention` (never who is erased). */
  readonly actor: string;
}

/** The answer of an erasure: ids, time and counts, nothing about the person. */
export interface ErasureReceipt {
  readonly party_id: string;
  readonly erased_at: string;
  readonly lead_ids: string[];
  readonly counts: Record<string, number>;
}

export interface ErasureDependencies {
  readonly database: DatabaseHandle;
  readonly transactions: TransactionRunner;
  readonly refHashes: RefHashes;
  readonly outbox: WebhookOutbox;
}

export class ErasureService {
  readonly #deps: ErasureDependencies;

  constructor(deps: ErasureDependencies) {
    this.#deps = deps;
  }

  async erase(command: ErasureCommand): Promise<ErasureReceipt> {
    // Read before the transaction: on SQLite it holds the only connection.
    const hash = await this.#deps.refHashes.hasher();
    const { transactions, outbox, database } = this.#deps;
    const { receipt, revokedClaims } = await commitWrite(
      transactions,
      (trx) => eraseInTransaction(trx, command, hash, outbox),
      (result) => {
        if (result.callbacks) outbox.committed();
      },
    );
    // A delivery about the person that a worker had claimed before the commit is dropped or,
    // when already on its way, answered before the erasure is (docs/design.md section 14).
    await outbox.settleRevokedClaims(transactions, database.db, revokedClaims);
    await checkpointAfterErasure(database);
    return receipt;
  }
}

/** The whole erasure inside the caller's transaction (retention erases leads the same way). */
export async function eraseInTransaction(
  db: Kysely<Database>,
  command: ErasureCommand,
  hash: RefHasher,
  outbox: WebhookOutbox,
): Promise<{ receipt: ErasureReceipt; callbacks: boolean; revokedClaims: RevokedClaim[] }> {
  const { distributionId, partyId } = command;
  // Locked on PostgreSQL: a push to this person waits for the erasure, then finds no party
  // and runs again, and its refs then meet the tombstone.
  const stored = await loadLeadForUpdate(db, partyId);
  if (stored === undefined || stored.distributionId !== distributionId)
    throw missingParty(await findErasedParty(db, distributionId, partyId));
  const erasedAt = stampAfter(await writeClock(db), stored.updated_at);
  // Before the deliveries go: the claims workers hold on them (the erasure waits for those after its commit).
  const revokedClaims = await outbox.revokeClaims(db, stored.leadId);
  const counts = await deletePartyRows(db, { distributionId, partyId, leadId: stored.leadId });
  const leadIds = [stored.leadId];
  await insertTombstone(db, {
    distributionId,
    partyId,
    leadIds,
    erasedAt,
    erasedBy: command.actor,
    refHashes: stored.refs.map(hash),
  });
  await outbox.recordErasure(db, {
    distributionId,
    leadId: stored.leadId,
    partyId,
    at: erasedAt,
    callbacks: stored.callbacks,
    callbacksOnlyTheirs: await callbacksOnlyTheirs(db, { distributionId, partyId }, stored.callbacks),
  });
  await insertAudit(db, {
    id: newRowId(),
    at: erasedAt,
    action: 'erase',
    distributionId,
    partyId,
    actor: command.actor,
  });
  return {
    receipt: { party_id: partyId, erased_at: erasedAt, lead_ids: leadIds, counts },
    callbacks: stored.callbacks.length > 0,
    revokedClaims,
  };
}
