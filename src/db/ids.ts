// Primary keys of rows written on every push (leads, parties, risk objects, pushes,
// webhook events...) are UUIDv7: still UUIDs to the API, but time-ordered, so each insert
// lands next to the previous one in every id index instead of on a random page. With
// random v4 ids a group commit dirtied a page per row per index; see docs/benchmarks.md.
// Rare rows (distributions, tokens, users, clients) keep v4, which reveals no timestamp.
import { v7 } from 'uuid';

export const newRowId = (): string => v7();
