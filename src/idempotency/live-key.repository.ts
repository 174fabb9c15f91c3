// SQLite: a key's first read on a read-only connection of its own to the database file. The
// one writer's connection has a group commit open most of the time under load, and a read
// through it waits for that commit; this one reads what is committed at once (WAL), so a
// keyed write waits for one commit, its own, not two. Uncommitted rows are not seen: a
// request that finds its key free and loses the race to a concurrent one is refused when
// its write meets that one's row (idempotent-write.ts).
import { DatabaseSync } from 'node:sqlite';
import type { IdempotencyAnswerTable } from './idempotency.table.ts';
import { type ClaimRequest, type LiveOutcome, liveOutcome, SELECT_KEY_SQLITE } from './idempotency.repository.ts';

/** What a live row of the key says (another request runs, or its answer is kept); undefined when the key is free. */
export type LiveKeyReader = (request: Pick<ClaimRequest, 'lookup' | 'fingerprint' | 'now'>) => LiveOutcome | undefined;

export function openLiveKeyReader(filename: string): { read: LiveKeyReader; close(): void } {
  // Opened at the first keyed request: the file and its tables exist by then.
  let opened: { connection: DatabaseSync; select: ReturnType<DatabaseSync['prepare']> } | undefined;
  return {
    read: (request) => {
      if (opened === undefined) {
        const connection = new DatabaseSync(filename, { readOnly: true, timeout: 5_000 });
        opened = { connection, select: connection.prepare(SELECT_KEY_SQLITE) };
      }
      return liveOutcome(opened.select.get(request.lookup) as IdempotencyAnswerTable | undefined, request);
    },
    close: () => opened?.connection.close(),
  };
}
