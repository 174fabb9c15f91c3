import type { DuplicateKeyKind } from './duplicate-keys.ts';

/** A normalised key a party is found by as a possible duplicate (duplicate-keys.ts). */
export interface PartyDuplicateKeyTable {
  distribution_id: string;
  kind: DuplicateKeyKind;
  key: string;
  party_id: string;
  /** The folded name beside a `birth` key; else null. */
  name: string | null;
}
