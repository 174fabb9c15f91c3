// What a request that claimed an Idempotency-Key carries to its route and back to the
// plugin's onSend (docs/design.md section 14), and how a route keeps its answer inside its
// own write's transaction (`keepAnswerInWrite`), so that an acknowledged write is replayed
// and never run twice, even across a crash.
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Clock } from '../clock.ts';
import type { Database } from '../db/database.ts';
import { ApiError } from '../errors.ts';
import { insertAnswer, storeAnswer } from './idempotency.repository.ts';

/** The key's row a request holds: claimed (`id`), or to be written by its route's write (`deferred`). */
export interface Claim {
  readonly ttlMs: number;
  /** The TTL runs from the answer's write on this clock (src/clock.ts). */
  readonly clock: Clock;
  /** The claim row, `running` until its answer is stored. */
  readonly id?: string;
  /**
   * No row yet: on SQLite (one process, one writer) a route that keeps its answer in its
   * write inserts the key's row there, answer and all; a concurrent request with the key
   * finds it inserted first and is refused. Saves the claim's own write.
   */
  readonly deferred?: { readonly lookup: string; readonly fingerprint: string; readonly distributionId: string | null };
  /** Counts a conflict found only by the write (the metric lives with the app). */
  readonly conflict: () => void;
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
  }
}

/** What a write's transaction stores for its key: the answer exactly as it will be sent. */
export interface WrittenAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

export function idempotencyConflict(): ApiError {
  return new ApiError(409, 'IdempotencyConflict', [{ target: 'Idempotency-Key', code: 'idempotency_conflict' }], {
    headers: { 'retry-after': '1' },
  });
}

/**
 * For a route that keeps its answer in its write's transaction: stores it with `db` (the
 * transaction) when the request has a key, and returns a function to call once that
 * transaction has committed; undefined when there is no key.
 */
export function keepAnswerInWrite(request: FastifyRequest):
  | {
      /** `partyIds`: the parties the answer shows, when the route knows them (else read from the answer). */
      keep(db: Kysely<Database>, answer: WrittenAnswer, partyIds?: readonly string[]): Promise<void>;
      committed(): void;
    }
  | undefined {
  const claim = request.idempotencyClaim;
  if (claim === undefined) return undefined;
  return {
    keep: async (db, answer, partyIds) => {
      const distributionId = distributionOf(request);
      const parties =
        partyIds === undefined || distributionId === undefined
          ? partiesOf(request, answer.body)
          : partyIds.map((partyId) => ({ distributionId, partyId }));
      const now = claim.clock.now();
      const stored = { ...answer, expiresAt: new Date(now + claim.ttlMs).toISOString(), parties };
      if (claim.id !== undefined) return storeAnswer(db, claim.id, stored);
      const inserted = await insertAnswer(db, { ...claim.deferred!, now: new Date(now).toISOString() }, stored);
      if (!inserted) {
        // Another request with the key got there first: this write is rolled back.
        claim.conflict();
        throw idempotencyConflict();
      }
    },
    committed: () => {
      claim.keptByWrite = true;
    },
  };
}

export function distributionOf(request: FastifyRequest): string | undefined {
  const id = (request.params as { distribution_id?: unknown } | undefined)?.distribution_id;
  return typeof id === 'string' ? id : undefined;
}

/** The parties an answer shows: the path's, a lead's, and each batch item's lead's. */
export function partiesOf(request: FastifyRequest, body: string): Array<{ distributionId: string; partyId: string }> {
  const distributionId = distributionOf(request);
  if (distributionId === undefined) return [];
  const ids = new Set<string>();
  const fromPath = (request.params as { party_id?: unknown }).party_id;
  if (typeof fromPath === 'string') ids.add(fromPath);
  try {
    const answer = JSON.parse(body) as { party_id?: unknown; results?: Array<{ lead?: { party_id?: unknown } }> };
    if (typeof answer?.party_id === 'string') ids.add(answer.party_id);
    for (const result of Array.isArray(answer?.results) ? answer.results : []) {
      if (typeof result?.lead?.party_id === 'string') ids.add(result.lead.party_id);
    }
  } catch {
    // Not JSON: nothing in it names a party.
  }
  return [...ids].map((partyId) => ({ distributionId, partyId }));
}
