// Possible-duplicate keys for parties stored before the keys existed (docs/operations.md,
// "Possible-duplicate keys of older parties"): migration 2026-11-28T05-00 made the table
// empty, and a push writes a party's keys only when they change, so an older party is
// never found as a duplicate until it is keyed. `lead-intake party duplicate-keys` walks
// every party without a key by id, a batch per transaction (a big database is never held
// for long; pushes of a batch's parties wait for that one transaction at most), computing
// its keys as a push would (duplicate-keys.ts). Safe while servers push, and to run again:
// a party with keys is passed over, and one that a push keyed meanwhile is left as it is.
import type { TransactionRunner } from '../../db/transaction-runner.ts';
import type { Document } from '../model/party.aggregate.ts';
import { storedDuplicateKeys } from './duplicate-keys.ts';
import {
  insertDuplicateKeys,
  lockKeylessParties,
  selectKeyedParties,
  selectLiveVins,
} from './duplicate-keys-backfill.repository.ts';
import type { PartyDuplicateKeyTable } from './duplicate-keys.table.ts';

export const BACKFILL_BATCH = 500;

export interface BackfillReport {
  /** Parties without a key that were read (those with none to have included). */
  readonly parties_read: number;
  /** Parties that got keys. */
  readonly parties_keyed: number;
  readonly keys_written: number;
}

export async function backfillDuplicateKeys(
  transactions: TransactionRunner,
  batchSize = BACKFILL_BATCH,
): Promise<BackfillReport> {
  let after = '';
  const report = { parties_read: 0, parties_keyed: 0, keys_written: 0 };
  for (;;) {
    const batch = await transactions.run(async (trx) => {
      const parties = await lockKeylessParties(trx, after, batchSize);
      const ids = parties.map((party) => party.id);
      const [vins, keyed] = [await selectLiveVins(trx, ids), await selectKeyedParties(trx, ids)];
      const vinsOf = Map.groupBy(vins, (car) => car.party_id);
      const rows: PartyDuplicateKeyTable[] = parties
        .filter((party) => !keyed.has(party.id))
        .flatMap((party) =>
          storedDuplicateKeys(
            JSON.parse(party.data) as Document,
            (vinsOf.get(party.id) ?? []).map((car) => car.vin),
          ).map((key) => ({ distribution_id: party.distribution_id, party_id: party.id, ...key })),
        );
      await insertDuplicateKeys(trx, rows);
      return { ids, rows };
    });
    report.parties_read += batch.ids.length;
    report.parties_keyed += new Set(batch.rows.map((row) => row.party_id)).size;
    report.keys_written += batch.rows.length;
    if (batch.ids.length < batchSize) return report;
    after = batch.ids.at(-1)!;
  }
}
