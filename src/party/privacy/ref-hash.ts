// Keyed hashes of erased external refs (docs/design.md section 15): a push carrying an
// erased ref is recognised without keeping the ref. HMAC-SHA256 under a random key that
// only the database holds (ref-hashes.service.ts loads it), so every process computes the
// same hash.
import { createHmac } from 'node:crypto';
import type { ExternalRef } from '../model/party.aggregate.ts';

export type RefHasher = (ref: ExternalRef) => string;

/** The hasher under `key`. */
export function refHasher(key: Buffer): RefHasher {
  // Party refs only: policy refs are not the person's, and a pushed policy ref never
  // brings an erased person back on its own.
  return (ref) => createHmac('sha256', key).update(`party\u0000${ref.company}\u0000${ref.ref}`).digest('hex');
}
