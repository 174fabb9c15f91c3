// Possible duplicates of a party (docs/api.md, "Possible duplicates"): the other live parties
// of its distribution that share a strong signal with it, strongest first. Another
// distribution's party is as unknown as one that does not exist; an erased one is 410.
import type { DatabaseHandle } from '../../db/database.ts';
import { missingParty } from '../privacy/erased-or-unknown.ts';
import { findErasedParty } from '../privacy/tombstone.repository.ts';
import { findPartyKind } from '../read/lead-read.repository.ts';
import { type ListedKey, type PossibleDuplicate, rankDuplicates, withReasons } from './duplicate-ranking.ts';
import { findSharedKeys, findSharedParties } from './duplicates.repository.ts';

export class DuplicatesReader {
  readonly #database: DatabaseHandle;

  constructor(deps: { database: DatabaseHandle }) {
    this.#database = deps.database;
  }

  async list(distributionId: string, partyId: string): Promise<PossibleDuplicate[]> {
    const db = this.#database.db;
    if ((await findPartyKind(db, distributionId, partyId)) === undefined)
      throw missingParty(await findErasedParty(db, distributionId, partyId));
    // Only the keys that give a reason: the lead and name are read for those parties alone.
    const keys = withReasons(await findSharedKeys(db, partyId));
    const parties = await findSharedParties(db, [...new Set(keys.map((key) => key.partyId))]);
    const listed: ListedKey[] = keys.flatMap((key) => {
      const party = parties.get(key.partyId);
      return party === undefined ? [] : [{ partyId: key.partyId, reason: key.reason, ...party }];
    });
    return rankDuplicates(listed);
  }
}
