// The one path every write use case takes: its work runs as one transaction, again while
// it loses a race (docs/design.md rule 10), and what must follow the commit runs only once the
// write is committed (an acknowledged write is a committed one).
import { retryOnWriteConflict } from './errors.ts';
import type { TransactionRunner, Work } from './transaction-runner.ts';

/**
 * Two writers racing on one party both pass their checks; the database's unique indexes
 * or version check stop the second, which then runs again and finds the first one's rows.
 */
export const WRITE_ATTEMPTS = 8;

export async function commitWrite<T>(
  transactions: TransactionRunner,
  work: Work<T>,
  afterCommit?: (result: T) => void,
): Promise<T> {
  // The work runs again after a lost race: group commit may run it again too (transaction-runner.ts).
  const result = await retryOnWriteConflict(() => transactions.run(work, { rerunnable: true }), WRITE_ATTEMPTS);
  afterCommit?.(result);
  return result;
}
