// Primary keys of rows written on every push (leads, parties, risk objects, pushes,
// webhook events...) are UUIDv7: still UUIDs to the API, but time-ordered, so each insert
// lands next to the previous one in every id index instead of on a random page. With
// random v4 ids a group commit dirtied a page per row per index; see docs/benchmarks.md.
// Rare rows (distributions, tokens, users, clients) keep v4, which reveals no timestamp.
import { randomFillSync } from 'node:crypto';
import { v7 } from 'uuid';

/** Random bytes for 256 ids, fetched at once: one crypto call per id was 7% of a minimal push's CPU. */
const POOL_BYTES = 16 * 256;
let pool = Buffer.alloc(0);
let offset = POOL_BYTES;

function random16(): Uint8Array {
  if (offset >= POOL_BYTES) {
    pool = randomFillSync(Buffer.allocUnsafe(POOL_BYTES));
    offset = 0;
  }
  offset += 16;
  return pool.subarray(offset - 16, offset);
}

/**
 * Time-ordered to the millisecond; ids of one millisecond are in random order among
 * themselves, which keeps them on the same index page all the same.
 */
export const newRowId = (): string => v7({ random: random16() });

// UUIDs are case-insensitive (RFC 9562, section 4): the service stores and compares them in
// lower case, so an id in upper or mixed case, in a path or on the command line, names the
// same row as the stored one (docs/design.md section 14). The one rule: whatever arrives in
// the shape of a UUID is lower-cased before anything looks it up.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `value` has the shape of a UUID, in any case. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** `value` lower-cased when it has the shape of a UUID; anything else as it is. */
export function canonicalId(value: string): string {
  return isUuid(value) ? value.toLowerCase() : value;
}
