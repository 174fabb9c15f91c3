// Idempotency-Key on every POST, PATCH and DELETE under /v1/api/ (docs/design.md section 14;
// docs/api.md, "Retrying safely"; IETF draft "The Idempotency-Key HTTP Header Field", Stripe's
// model). Cross-cutting, like the rate limit: hooks added to each write route as it is
// registered. preHandler (after authentication and validation) reads the key's row and
// answers from it when it is live; onSend, before the answer leaves, keeps a 2xx answer's
// exact bytes or frees the key of a refused request.
//
// A route whose use case runs one transaction (a push, a PATCH) keeps the answer in it
// (idempotent-write.ts): one row, written by the write itself, so a retry can never run it
// twice and an erasure of the person either finds the answer or is met by the write. A
// batch (one transaction per item) claims its key first and stores its answer after the
// commits, only while every person it shows still exists (idempotency.repository.ts); a
// process killed in between leaves the claim, which its lease (IDEMPOTENCY_LEASE_MS) ends,
// and the retry then runs again (a batch's pushes merge into the leads they made: 200, not 201).
import { hash } from 'node:crypto';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onSendHookHandler,
  preHandlerHookHandler,
  RouteOptions,
} from 'fastify';
import Type from 'typebox';
import type { Kysely } from 'kysely';
import { isoNow, type Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { Database, DatabaseHandle } from '../db/database.ts';
import { canonicalId } from '../db/ids.ts';
import { PreparedAnswer, ValidationError } from '../errors.ts';
import { rateLimitKey } from '../http/rate-limit/rate-limit.ts';
import {
  claimKey,
  type ClaimRequest,
  type LiveOutcome,
  purgeExpiredKeys,
  releaseClaim,
  storeAnswer,
} from './idempotency.repository.ts';
import { openLiveKeyReader } from './live-key.repository.ts';
import { distributionOf, liveKeyAnswer, partiesOf } from './idempotent-write.ts';

/** How long a running request holds its key: far past any request's run, short enough that a crash does not block a retry for long. */
export const IDEMPOTENCY_LEASE_MS = 60_000;
/** Expired keys are purged this often, at most PURGE_BATCH at a time. */
const PURGE_INTERVAL_MS = 60_000;
const PURGE_BATCH = 1_000;

const WRITE_METHODS = new Set(['POST', 'PATCH', 'DELETE']);
/** The answer headers a replay repeats (docs/design.md section 14). */
const KEPT_HEADERS = ['location', 'etag', 'content-type'] as const;
/** 1 to 255 printable ASCII characters. */
const KEY_PATTERN = /^[\x20-\x7e]{1,255}$/;

export interface IdempotencyOptions {
  readonly config: Pick<Config, 'idempotencyTtlMs'>;
  readonly database: DatabaseHandle;
  /**
   * Runs the key's writes (claim, answer, release). On SQLite the app's transaction runner,
   * so they share the group commits of the writes around them instead of committing one by
   * one between them; on PostgreSQL the database itself, each statement its own commit.
   */
  readonly write: <T>(work: (db: Kysely<Database>) => Promise<T>) => Promise<T>;
  /** What a key's lease and TTL are counted on (src/clock.ts). */
  readonly clock: Clock;
}

/** Must run before the routes it covers are registered (an onRoute hook). */
export function registerIdempotency(
  app: FastifyInstance,
  { config, database, write, clock }: IdempotencyOptions,
): void {
  const { db } = database;
  // SQLite: a claimed key's first read, on a read-only connection of its own
  // (live-key.repository.ts). PostgreSQL reads no key before its claim or its write.
  const reader = database.dialect === 'sqlite' ? openLiveKeyReader(database.location) : undefined;
  if (reader) app.addHook('onClose', async () => reader.close());
  const readLive = async (request: ClaimRequest): Promise<LiveOutcome | undefined> => {
    if (reader === undefined) return undefined;
    // Counted with the rest (`/metrics`), though it does not go through the query builder.
    database.statements.count += 1;
    return reader.read(request);
  };
  const counts = {
    conflict: () => app.metrics.idempotencyConflicts.inc(),
    replayed: () => app.metrics.idempotentReplays.inc(),
  };
  const ttlMs = config.idempotencyTtlMs;
  /** The key's lookup and the request's fingerprint; undefined when the request keeps no record. */
  const keyOf = (request: FastifyRequest): Pick<ClaimRequest, 'lookup' | 'fingerprint'> | undefined => {
    const key = request.headers['idempotency-key'];
    if (typeof key !== 'string' || !KEY_PATTERN.test(key)) {
      throw new ValidationError([{ target: 'Idempotency-Key', code: 'invalid' }]);
    }
    // A request its route refuses on its own (schema problems it reports itself) keeps no record.
    if (request.validationError || !request.caller) return undefined;
    // The path as the route reads it: an id in upper case names the same row (RFC 9562), so
    // a retry that writes it in another case is the same request (docs/design.md section 14).
    const [rawPath = '', query] = request.url.split('?');
    const path = rawPath.split('/').map(canonicalId).join('/');
    const target = query === undefined ? path : `${path}?${query}`;
    return {
      lookup: sha256(`${rateLimitKey(request.caller)}\n${request.method}\n${path}\n${key}`),
      fingerprint: sha256(`${request.method}\n${target}\n${request.rawBody ?? ''}`),
    };
  };
  /**
   * A route kept by its write, on PostgreSQL always and on SQLite too: nothing is read here.
   * One read decides a replay (or a refusal), the write's own first statement
   * (idempotent-write.ts; on PostgreSQL with the key's lock), and a free key is written by
   * the write. Synchronous, so such a request costs no promise and no tick here.
   */
  const deferToWrite = (request: FastifyRequest): void => {
    const deferred = keyOf(request);
    if (deferred !== undefined) request.idempotencyClaim = { ttlMs, clock, deferred, ...counts, keptByWrite: false };
  };
  /**
   * Claimed first (a batch): on SQLite the key's row read first (only a free key is written);
   * on PostgreSQL the claim's insert comes first (one round trip for a new key), and reads the
   * row only when the key is taken.
   */
  const claimFirst = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    const key = keyOf(request);
    if (key === undefined) return undefined;
    const now = clock.now();
    const claim: ClaimRequest = {
      ...key,
      distributionId: distributionOf(request) ?? null,
      now: new Date(now).toISOString(),
      leaseUntil: new Date(now + IDEMPOTENCY_LEASE_MS).toISOString(),
    };
    const outcome = (await readLive(claim)) ?? (await write((trx) => claimKey(trx, claim)));
    if (outcome.kind !== 'claimed') {
      const answer = liveKeyAnswer(outcome, counts);
      if (!(answer instanceof PreparedAnswer)) throw answer;
      return reply.status(answer.status).headers(answer.headers).send(answer.body);
    }
    request.idempotencyClaim = { held: outcome.claim, ttlMs, clock, ...counts, keptByWrite: false };
    return undefined;
  };

  const settle = async (request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> => {
    const claim = request.idempotencyClaim;
    // Kept by the write, or (a deferred claim) nothing written to free.
    if (claim?.held === undefined || claim.keptByWrite) return payload;
    request.idempotencyClaim = undefined;
    const { held } = claim;
    const status = reply.statusCode;
    const body =
      typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : undefined;
    try {
      const kept =
        status >= 200 &&
        status < 300 &&
        body !== undefined &&
        (await write((trx) =>
          storeAnswer(trx, held, {
            status,
            headers: keptHeaders(reply),
            body,
            expiresAt: new Date(clock.now() + claim.ttlMs).toISOString(),
            distributionId: distributionOf(request) ?? null,
            partyIds: partiesOf(request, body),
          }),
        ));
      // Refused, or a person it shows was erased since the write: the key is free again, and
      // a retry is answered as the request would be now.
      if (!kept) await write((trx) => releaseClaim(trx, held));
    } catch (error) {
      // The write itself stands; only its replay is lost (the claim's lease frees the key).
      request.log.error({ err: error }, 'idempotency: the answer could not be kept');
    }
    return payload;
  };

  // Callback hooks: most writes carry no key, and an async hook would cost each of them a
  // promise and a tick (preHandler and onSend alike) for nothing.
  const claimHook: preHandlerHookHandler = (request, reply, done) => {
    if (request.headers['idempotency-key'] === undefined) return done();
    if (request.routeOptions.config.idempotencyInWrite === true) {
      try {
        deferToWrite(request);
      } catch (error) {
        return done(error as Error);
      }
      return done();
    }
    // A replay was sent by `claimFirst`: the request ends there, and `done` is not called.
    claimFirst(request, reply).then((sent) => sent === undefined && done(), done);
  };
  const settleHook: onSendHookHandler = (request, reply, payload, done) => {
    const held = request.idempotencyClaim;
    if (held?.held === undefined || held.keptByWrite) return done(null, payload);
    settle(request, reply, payload).then((kept) => done(null, kept), done);
  };

  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = [route.method].flat();
    if (!route.url.startsWith('/v1/api/') || !methods.some((method) => WRITE_METHODS.has(method))) return;
    route.preHandler = [...[route.preHandler ?? []].flat(), claimHook];
    route.onSend = [...[route.onSend ?? []].flat(), settleHook];
    documentHeader(route);
  });

  const purge = setInterval(() => {
    purgeExpiredKeys(db, isoNow(clock), PURGE_BATCH).catch((error: unknown) =>
      app.log.error({ err: error }, 'idempotency: purging expired keys failed'),
    );
  }, PURGE_INTERVAL_MS);
  purge.unref();
  app.addHook('onClose', async () => clearInterval(purge));
}

/** Declares the header in the route's schema, for the OpenAPI document; the hook checks it. */
function documentHeader(route: RouteOptions): void {
  route.schema ??= {};
  const schema = route.schema as { headers?: { properties?: Record<string, unknown> } };
  const header = Type.Optional(
    Type.String({
      description:
        'Makes a retry safe: a successful answer is kept for IDEMPOTENCY_TTL and replayed, byte for byte, ' +
        'with `Idempotent-Replayed: true` to the same key, method, path and body (docs/api.md, "Retrying safely").',
      examples: ['3f9b2c1e-5d7a-4e8b-9c0d-1a2b3c4d5e6f'],
    }),
  );
  if (schema.headers?.properties) schema.headers.properties['idempotency-key'] = header;
  else schema.headers = Type.Object({ 'idempotency-key': header });
}

/** One-shot: a Hash object per key and body cost about three times as much. */
function sha256(text: string): string {
  return hash('sha256', text, 'hex');
}

function keptHeaders(reply: FastifyReply): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = reply.getHeader(name);
    if (value !== undefined) headers[name] = String(value);
  }
  return headers;
}
