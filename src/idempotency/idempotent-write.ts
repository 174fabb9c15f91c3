// What a request with an Idempotency-Key carries to its route and back to the plugin's onSend
// (docs/design.md section 14), and how a route keeps its answer inside its own write's
// transaction (`keepAnswerInWrite`): an acknowledged write is then replayed and never run
// twice, even across a crash, and an erasure of the person it shows either finds the answer
// (the write committed first) or the write meets the erasure (it committed first).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Clock } from '../clock.ts';
import type { Database } from '../db/database.ts';
import { ApiError, PreparedAnswer } from '../errors.ts';
import {
  answerValues,
  type HeldClaim,
  insertAnswer,
  type LiveOutcome,
  lockedKeyOutcome,
  readKeyInWrite,
} from './idempotency.repository.ts';
import type { IdempotencyAnswerTable } from './idempotency.table.ts';

/** The key a request holds: claimed before its work (`held`), or to be written by its route's write (`deferred`). */
export interface Claim {
  readonly ttlMs: number;
  /** The TTL runs from the answer's write on this clock (src/clock.ts). */
  readonly clock: Clock;
  /** The `running` row committed before the work; its answer is stored after it. */
  readonly held?: HeldClaim;
  /**
   * No row yet: the route's write inserts the key's row, answer and all, in its own
   * transaction; a concurrent request with the key is refused (PostgreSQL: the key's lock,
   * taken first in the transaction; both: the row's primary key).
   */
  readonly deferred?: { readonly lookup: string; readonly fingerprint: string };
  /** Counts a conflict found only by the write (the metric lives with the app). */
  readonly conflict: () => void;
  /** Counts a kept answer replayed (found by the write's own read, on SQLite). */
  readonly replayed: () => void;
  /** Set once the write that stored the answer in its own transaction has committed. */
  keptByWrite: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyClaim?: Claim;
  }
  interface FastifyContextConfig {
    /** The route keeps its answer in its write's transaction through `keepAnswerInWrite`. */
    idempotencyInWrite?: boolean;
    /** The route's answer shows no person, whatever ids it holds (the erasure receipt). */
    idempotencyShowsNoOne?: boolean;
  }
}

/** What Fastify sends with a serialised JSON answer, and so what a kept one says. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** What a write's transaction stores for its key: the answer exactly as it will be sent. */
export interface WrittenAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** The people it shows (a lead's or a party's), whose erasure removes it. */
  readonly partyIds: readonly string[];
}

/**
 * A use case's part in keeping its answer: `begin` is the first step of its transaction,
 * `keep` the last, with the result (each runs again when the transaction does).
 */
export interface AnswerInWrite<Result> {
  begin(db: Kysely<Database>): Promise<void>;
  keep(db: Kysely<Database>, result: Result): Promise<void>;
  /**
   * The key for a use case that reads its row (on PostgreSQL taking its lock first) in its own
   * first statement instead of `begin` (the push's lookup: a statement fewer, on PostgreSQL a
   * round trip), and what to do with what that statement found.
   */
  keyInLookup(): KeyInLookup;
  /**
   * The answer's row, for a use case that writes it in a statement of its own write instead
   * of `keep` (on PostgreSQL the push's rows: a round trip fewer).
   */
  rowOf(result: Result): AnswerRow;
}

/** The key's row with its answer (answerValues), and what its write's outcome means. */
export interface AnswerRow {
  readonly values: readonly unknown[];
  /** False: a live row holds the key (a request with it committed meanwhile); ends the write with 409. */
  written(inserted: boolean): void;
}

/** The key a use case's first statement locks and reads, and the check of what it found. */
export interface KeyInLookup {
  readonly lookup: string;
  /** Ends the write (throws) when the key is live or another request holds it. */
  check(free: boolean, row: IdempotencyAnswerTable | undefined): void;
}

export function idempotencyConflict(): ApiError {
  return new ApiError(409, 'IdempotencyConflict', [{ target: 'Idempotency-Key', code: 'idempotency_conflict' }], {
    headers: { 'retry-after': '1' },
  });
}

/**
 * A live key's answer: another request with it still runs (409), it came with another
 * request (422), or its kept answer, replayed byte for byte with `Idempotent-Replayed`.
 */
export function liveKeyAnswer(outcome: LiveOutcome, counts: Pick<Claim, 'conflict' | 'replayed'>): Error {
  switch (outcome.kind) {
    case 'running':
      counts.conflict();
      return idempotencyConflict();
    case 'reused':
      return new ApiError(422, 'IdempotencyKeyReused', [{ target: 'Idempotency-Key', code: 'idempotency_key_reused' }]);
    case 'stored': {
      counts.replayed();
      const { row } = outcome;
      const headers = JSON.parse(row.headers ?? '{}') as Record<string, string>;
      return new PreparedAnswer(row.status!, { ...headers, 'idempotent-replayed': 'true' }, row.body ?? '');
    }
  }
}

/**
 * For a route that keeps its answer in its write's transaction: the hooks to hand its use
 * case, and `send`, which sends the kept bytes once that transaction has committed
 * (undefined when nothing was kept). Undefined when the request has no key.
 */
export function keepAnswerInWrite<Result>(
  request: FastifyRequest,
  reply: FastifyReply,
  answerOf: (result: Result) => WrittenAnswer,
): { inWrite: AnswerInWrite<Result>; send(): FastifyReply | undefined } | undefined {
  const claim = request.idempotencyClaim;
  const key = claim?.deferred;
  if (claim === undefined || key === undefined) return undefined;
  const refuse = () => {
    claim.conflict();
    return idempotencyConflict();
  };
  let kept: WrittenAnswer | undefined;
  /** The key as the write reads it, now. */
  const asked = () => ({ ...key, now: new Date(claim.clock.now()).toISOString() });
  /** A live key (or one another request holds) ends the write before it writes anything. */
  const endIfLive = (live: LiveOutcome | undefined) => {
    if (live !== undefined) throw liveKeyAnswer(live, claim);
  };
  /** The write's own read found no row of the key, not even an expired one (insertAnswer). */
  let rowless = false;
  const rowOf = (result: Result): AnswerRow => {
    const answer = answerOf(result);
    const now = claim.clock.now();
    const values = answerValues(
      { ...key, now: new Date(now).toISOString() },
      {
        ...answer,
        expiresAt: new Date(now + claim.ttlMs).toISOString(),
        distributionId: distributionOf(request) ?? null,
      },
    );
    return {
      values,
      written: (inserted) => {
        // Another request with the key got there first: this write is rolled back.
        if (!inserted) throw refuse();
        kept = answer;
      },
    };
  };
  return {
    inWrite: {
      begin: async (db) => {
        // The key is read here, in the write: on SQLite in its snapshot and on the writer's
        // warm cache, rather than before on a connection of its own, whose cache every
        // commit empties; on PostgreSQL with its lock, in one statement.
        const read = await readKeyInWrite(db, asked());
        rowless = read.rowless;
        endIfLive(read.live);
      },
      keyInLookup: () => ({
        lookup: key.lookup,
        check: (free, row) => {
          rowless = row === undefined;
          endIfLive(lockedKeyOutcome(free, row, asked()));
        },
      }),
      rowOf,
      keep: async (db, result) => {
        const row = rowOf(result);
        row.written(await insertAnswer(db, row.values, rowless));
      },
    },
    send: () => {
      if (kept === undefined) return undefined;
      claim.keptByWrite = true;
      return reply.status(kept.status).headers(kept.headers).send(kept.body);
    },
  };
}

export function distributionOf(request: FastifyRequest): string | undefined {
  const id = (request.params as { distribution_id?: unknown } | undefined)?.distribution_id;
  return typeof id === 'string' ? id : undefined;
}

/** The people an answer shows: a lead's or a party's, and each batch item's lead's. */
export function partiesOf(request: FastifyRequest, body: string): string[] {
  if (request.routeOptions.config.idempotencyShowsNoOne) return [];
  const ids = new Set<string>();
  const fromPath = (request.params as { party_id?: unknown }).party_id;
  if (typeof fromPath === 'string') ids.add(fromPath.toLowerCase());
  try {
    const answer = JSON.parse(body) as { party_id?: unknown; results?: Array<{ lead?: { party_id?: unknown } }> };
    if (typeof answer?.party_id === 'string') ids.add(answer.party_id.toLowerCase());
    for (const result of Array.isArray(answer?.results) ? answer.results : []) {
      if (typeof result?.lead?.party_id === 'string') ids.add(result.lead.party_id.toLowerCase());
    }
  } catch {
    // Not JSON: nothing in it names a party.
  }
  return [...ids];
}
