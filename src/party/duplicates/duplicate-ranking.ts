// From the keys a party shares with others to the answer of GET …/duplicates: one item per
// other party, with the reasons it is listed for and a score, strongest first. A shared
// birth date alone is no reason: it counts only with a close name (close-names.ts).
import { closeNames } from './close-names.ts';
import type { DuplicateKeyKind } from './duplicate-keys.ts';

export const DUPLICATE_REASONS = ['email', 'telephone', 'vin', 'enterprise_nr', 'birth_and_name'] as const;
export type DuplicateReason = (typeof DUPLICATE_REASONS)[number];

/**
 * What each reason adds to the score (at most 100 in all). An e-mail address or an
 * enterprise number names one person or company; a telephone is sometimes a household's,
 * a car sometimes changes hands; a birth date with a close name is a guess.
 */
const WEIGHTS: Readonly<Record<DuplicateReason, number>> = {
  email: 40,
  enterprise_nr: 40,
  telephone: 30,
  vin: 30,
  birth_and_name: 20,
};

/** At most this many parties are listed: the strongest. */
export const MAX_DUPLICATES = 50;

/** One key another party shares with the party asked about. */
export interface SharedKey {
  readonly partyId: string;
  readonly leadId: string;
  readonly kind: DuplicateKeyKind;
  /** For `birth`: the other party's folded name, and the asked party's. */
  readonly name: string | null;
  readonly ownName: string | null;
  /** The other party's name as a broker reads it (the broker app's list shows it). */
  readonly displayName: string;
}

export interface PossibleDuplicate {
  readonly party_id: string;
  readonly lead_id: string;
  readonly reasons: DuplicateReason[];
  readonly score: number;
  /** Not in the API's answer: the broker app's lead page shows it. */
  readonly name: string;
}

/**
 * The keys that give a reason to list the other party, each with its reason (reasonOf, found
 * once: a birth date's is an edit distance); the others dropped.
 */
export function withReasons<Key extends Pick<SharedKey, 'kind' | 'name' | 'ownName'>>(
  keys: readonly Key[],
): Array<Key & { readonly reason: DuplicateReason }> {
  return keys.flatMap((key) => {
    const reason = reasonOf(key);
    return reason === undefined ? [] : [{ ...key, reason }];
  });
}

/** A shared key with the reason it lists the other party for (withReasons). */
export interface ListedKey {
  readonly partyId: string;
  readonly leadId: string;
  readonly reason: DuplicateReason;
  readonly displayName: string;
}

export function rankDuplicates(listed: readonly ListedKey[]): PossibleDuplicate[] {
  const byParty = new Map<string, { leadId: string; name: string; reasons: Set<DuplicateReason> }>();
  for (const key of listed) {
    const entry = byParty.get(key.partyId) ?? { leadId: key.leadId, name: key.displayName, reasons: new Set() };
    entry.reasons.add(key.reason);
    byParty.set(key.partyId, entry);
  }
  return [...byParty.entries()]
    .map(([partyId, { leadId, name, reasons }]) => {
      const ordered = DUPLICATE_REASONS.filter((reason) => reasons.has(reason));
      const score = Math.min(
        100,
        ordered.reduce((sum, reason) => sum + WEIGHTS[reason], 0),
      );
      return { party_id: partyId, lead_id: leadId, reasons: ordered, score, name };
    })
    .sort((a, b) => b.score - a.score || (a.party_id < b.party_id ? -1 : 1))
    .slice(0, MAX_DUPLICATES);
}

/** Why a shared key lists the other party, if it does: a birth date only with a close name. */
export function reasonOf(key: Pick<SharedKey, 'kind' | 'name' | 'ownName'>): DuplicateReason | undefined {
  if (key.kind !== 'birth') return key.kind;
  return key.name !== null && key.ownName !== null && closeNames(key.name, key.ownName) ? 'birth_and_name' : undefined;
}
