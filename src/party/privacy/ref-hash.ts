// Keyed hashes of erased external refs (docs/design.md section 15): a push carrying an
// erased ref is recognised without keeping the ref. HMAC-SHA256 under a random key that
// only the database holds (ref-hashes.service.ts loads it), so every process computes the
// same hash.
import { hash } from 'node:crypto';
import type { ExternalRef } from '../model/party.aggregate.ts';

export type RefHasher = (ref: ExternalRef) => string;

/** SHA-256's block: an HMAC key is padded (or first hashed) to it (RFC 2104, section 2). */
const BLOCK = 64;

/**
 * The hasher under `key`. HMAC-SHA256 as RFC 2104 defines it, H((K ^ opad) || H((K ^ ipad) || m)),
 * with both padded keys worked out once: `createHmac` makes a key object of its key on every
 * call, which cost more than the two hashes themselves on every push that carries refs.
 */
export function refHasher(key: Buffer): RefHasher {
  const block = Buffer.alloc(BLOCK);
  (key.length > BLOCK ? hash('sha256', key, 'buffer') : key).copy(block);
  const inner = Buffer.from(block.map((byte) => byte ^ 0x36));
  const outer = Buffer.from(block.map((byte) => byte ^ 0x5c));
  // Party refs only: policy refs are not the person's, and a pushed policy ref never
  // brings an erased person back on its own.
  return (ref) => {
    const message = Buffer.from(`party\u0000${ref.company}\u0000${ref.ref}`);
    const innerHash = hash('sha256', Buffer.concat([inner, message]), 'buffer');
    return hash('sha256', Buffer.concat([outer, innerHash]), 'hex');
  };
}
