// Comparing a presented secret with the expected one in constant time (CSRF tokens,
// client secret hashes), so the time a refusal takes tells nothing about how close a
// guess came.
import { timingSafeEqual } from 'node:crypto';

/** True when both hold the same bytes. timingSafeEqual throws on unequal lengths; a length gives nothing away. */
export function secretsEqual(expected: Buffer, actual: Buffer): boolean {
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
