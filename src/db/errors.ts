// Write conflicts that are worth running the whole transaction again for (docs/design.md rule
// 10): a unique constraint that a concurrent writer filled first, or a row that changed
// since it was read. On the next attempt the write sees the other one's result.

/** PostgreSQL SQLSTATE unique_violation. */
const PG_UNIQUE_VIOLATION = '23505';
/** SQLite extended result codes SQLITE_CONSTRAINT_UNIQUE and SQLITE_CONSTRAINT_PRIMARYKEY. */
const SQLITE_UNIQUE_CODES = new Set([2067, 1555]);

/** A row changed between reading it and writing it back (optimistic concurrency). */
export class StaleVersionError extends Error {}

export function isUniqueViolation(error: unknown): boolean {
  if (error === null || typeof error !== 'object') return false;
  const { code, errcode } = error as { code?: unknown; errcode?: unknown };
  if (code === PG_UNIQUE_VIOLATION) return true;
  return typeof errcode === 'number' && SQLITE_UNIQUE_CODES.has(errcode);
}

/** Runs `write` (one whole transaction) again while it loses a race, at most `attempts` times. */
export async function retryOnWriteConflict<T>(write: () => Promise<T>, attempts: number): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      const conflict = error instanceof StaleVersionError || isUniqueViolation(error);
      if (!conflict || attempt >= attempts) throw error;
    }
  }
}
