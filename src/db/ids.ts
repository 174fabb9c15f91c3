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
