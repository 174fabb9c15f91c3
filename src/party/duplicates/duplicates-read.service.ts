// Possible duplicates of a party (docs/api.md, "Possible duplicates"): the other live parties
// of its distribution that share a strong signal with it, strongest first. Another
// distribution's party is as unknown as one that does not exist; an erased one is 410.
import type { DatabaseHandle } from '../../db/database.ts';
import { missingParty } from '../privacy/erased-or-unknown.ts';
import { findErasedParty } from '../privacy/tombstone.repository.ts';
import { findPartyKind } from '../read/lead-read.repository.ts';
import { type ListedKey, type PossibleDuplicate, rankListed, reasonOf } from './duplicate-ranking.ts';
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
    // Only the keys that give a reason (each found once: a birth date's is an edit distance),
    // and the lead and name read for those parties alone.
    const keys = (await findSharedKeys(db, partyId)).flatMap((key) => {
      const reason = reasonOf(key);
      return reason === undefined ? [] : [{ partyId: key.partyId, reason }];
    });
    const parties = await findSharedParties(db, [...new Set(keys.map((key) => key.partyId))]);
    const listed: ListedKey[] = keys.flatMap((key) => {
      const party = parties.get(key.partyId);
      return party === undefined ? [] : [{ ...key, ...party }];
    });
    return rankListed(listed);
  }
}
