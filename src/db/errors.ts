// Recognising a unique-constraint violation on either engine, for the retry of DESIGN.md
// rule 10.

/** PostgreSQL SQLSTATE unique_violation. */
const PG_UNIQUE_VIOLATION = '23505';
/** SQLite extended result codes SQLITE_CONSTRAINT_UNIQUE and SQLITE_CONSTRAINT_PRIMARYKEY. */
const SQLITE_UNIQUE_CODES = new Set([2067, 1555]);

export function isUniqueViolation(error: unknown): boolean {
  if (error === null || typeof error !== 'object') return false;
  const { code, errcode } = error as { code?: unknown; errcode?: unknown };
  if (code === PG_UNIQUE_VIOLATION) return true;
  return typeof errcode === 'number' && SQLITE_UNIQUE_CODES.has(errcode);
}
