// The delivery worker (docs/design.md section 5): claims due deliveries from the outbox, sends
// each as a signed POST, and records every attempt with its result. Runs inside the server
// process (started by app.ts unless WEBHOOK_WORKER=false) or alone (`lead-intake webhook
// work`); any number of them may share one database.
//
// It does not poll in a hot loop: a commit that wrote events wakes it (WebhookOutbox), and
// a timer looks again every POLL_INTERVAL_MS for what other processes wrote and for retries.
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { systemClock, type Clock } from '../../clock.ts';
import type { Config } from '../../config.ts';
import type { DatabaseHandle } from '../../db/database.ts';
import type { TransactionRunner } from '../../db/transaction-runner.ts';
import { AddressGuard, type HostResolver } from './address-guard.ts';
import { anyDue, type AttemptRecord, type ClaimedDelivery } from './delivery.repository.ts';
import { claimKey, type RevokedClaim } from './claim-revocation.repository.ts';
import { type DeliveryWrites, deliveryWrites } from './delivery.writes.ts';
import { decide, type Decision } from './retry-policy.ts';
import { signingSecrets } from '../signing/signing-key.service.ts';
import { signWebhook } from '../signing/signing.ts';
import type { WebhookMetrics } from '../webhook.metrics.ts';
import type { WebhookOutbox } from '../webhook.outbox.ts';
import { receiverOrigin } from '../webhook.table.ts';
import { ATTEMPT_TIMEOUT_MS, WebhookSender, type SendResult } from './webhook.sender.ts';

/**
 * Attempts in flight per process, at most. One host's throughput is its attempts in flight
 * over each attempt's time, so one host's half (below) sets how fast a busy healthy receiver
 * is served: with 32 in flight to it, the benchmark's receiver (its answers slowed by the load
 * generator sharing its core) took 1,500-1,800 events/s while SQLite took 1,900-2,100 pushes/s
 * with a callback, and the outbox grew for as long as the pushes lasted; with 64 it takes
 * every event as it comes, delay p50 under 25 ms, over 60 s too (docs/benchmarks.md, "Early
 * afternoon of 2026-11-29, fifth session (issue 34): webhooks that keep up").
 */
const CONCURRENCY = 128;
/**
 * Attempts in flight to one receiver host, at most: a host that never answers, or whose
 * name takes seconds to fail to resolve, holds half the slots, and every other host's
 * deliveries go on in the rest (docs/design.md section 5). Half, not less: a busy healthy receiver gets
 * its throughput from attempts in flight (the benchmark's scenario d).
 */
export const PER_HOST_CONCURRENCY = CONCURRENCY / 2;
/**
 * Claimed for one host at most, in flight and waiting together: one claim (a commit,
 * shared with pushes on SQLite) serves a busy host for a while, and a host's backlog
 * never fills a claim.
 */
const PER_HOST_CLAIM = PER_HOST_CONCURRENCY * 2;
/**
 * Claimed beyond the attempts in flight, so a freed slot starts the next attempt at once
 * instead of waiting for a claim (a commit, shared with pushes on SQLite). The lease covers
 * the wait: these start within one attempt timeout.
 */
const CLAIM_AHEAD = CONCURRENCY;
const POLL_INTERVAL_MS = 1_000;
/** A claim outlives the longest attempt by a wide margin; a dead worker's claims return after it. */
const LEASE_MS = ATTEMPT_TIMEOUT_MS * 4;
/** On shutdown, attempts in flight get this long to finish; the rest are given back, due at once. */
const STOP_GRACE_MS = 5_000;

export type WorkerLog = Pick<FastifyBaseLogger, 'error' | 'warn' | 'info' | 'debug'>;

export interface WorkerDependencies {
  readonly database: DatabaseHandle;
  /** Claims and results go through the same runner as pushes (SQLite group commit)... */
  readonly transactions: TransactionRunner;
  /** ...unless written elsewhere (the webhook thread on SQLite: by the server's thread, delivery.writes.ts). */
  readonly writes?: DeliveryWrites;
  readonly config: Pick<Config, 'webhookRetrySchedule' | 'webhookAllowPrivateNetworks'>;
  readonly metrics: WebhookMetrics;
  readonly log: WorkerLog;
  /** Wakes the worker when this process commits new events. */
  readonly outbox?: WebhookOutbox;
  readonly pollIntervalMs?: number;
  /** Name resolution for callback hosts; the system's (dns.lookup) unless given (address-guard.ts). */
  readonly resolveHost?: HostResolver;
  /** How long one host's name may take to resolve; DNS_TIMEOUT_MS unless given. */
  readonly dnsTimeoutMs?: number;
  /** What decides when a delivery is due, its lease and its next attempt; the system's unless given. */
  readonly clock?: Clock;
}

interface InFlight {
  readonly delivery: ClaimedDelivery;
  readonly abort: AbortController;
}

interface Queued {
  readonly delivery: ClaimedDelivery;
  readonly secrets: readonly string[];
}

export class WebhookWorker {
  readonly #deps: WorkerDependencies;
  readonly #writes: DeliveryWrites;
  readonly #sender: WebhookSender;
  readonly #pollIntervalMs: number;
  readonly #clock: Clock;
  /** Claimed, waiting for a slot. */
  #queue: Queued[] = [];
  /** Attempts holding a slot: until the receiver's answer. */
  readonly #inFlight = new Map<string, InFlight>();
  /** Per receiver host: attempts in flight plus claimed ones waiting for a slot. */
  readonly #perHost = new Map<string, { inFlight: number; queued: number }>();
  /** Hosts whose last claim hit the per-host cap (or was skipped): more of theirs may be due. */
  readonly #hostsWithMore = new Set<string>();
  /** Every attempt until its result is recorded (which happens after its slot is freed). */
  readonly #unrecorded = new Set<Promise<void>>();
  #running = false;
  #round: Promise<void> | undefined;
  #wakeAgain = false;
  /** The last claim took all it could: more may be due as soon as a slot frees up. */
  #backlog = false;
  #timer: NodeJS.Timeout | undefined;
  /** Results waiting to be written, all in one transaction at the end of this event-loop turn. */
  #results: Array<{ record: AttemptRecord; done: (recorded: boolean) => void; failed: (error: unknown) => void }> = [];
  #timerAt = Infinity;
  #unsubscribe: (() => void) | undefined;
  #unsubscribeRevocations: (() => void) | undefined;

  constructor(deps: WorkerDependencies) {
    this.#deps = deps;
    this.#writes = deps.writes ?? deliveryWrites(deps.database, deps.transactions);
    this.#pollIntervalMs = deps.pollIntervalMs ?? POLL_INTERVAL_MS;
    this.#clock = deps.clock ?? systemClock;
    this.#sender = new WebhookSender({
      guard: new AddressGuard({
        allowPrivateNetworks: deps.config.webhookAllowPrivateNetworks,
        ...(deps.resolveHost && { resolveHost: deps.resolveHost }),
        ...(deps.dnsTimeoutMs !== undefined && { timeoutMs: deps.dnsTimeoutMs }),
      }),
      maxSockets: PER_HOST_CONCURRENCY,
    });
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#unsubscribe = this.#deps.outbox?.subscribe(() => this.wake());
    this.#unsubscribeRevocations = this.#deps.outbox?.subscribeRevocations((claims) => this.dropRevoked(claims));
    this.wake();
  }

  /** Look for due deliveries now (coalesced: a wake during a claim round runs one more round). */
  wake(): void {
    if (!this.#running) return;
    if (this.#round) {
      this.#wakeAgain = true;
      return;
    }
    this.#round = this.#claimRound().finally(() => {
      this.#round = undefined;
      if (this.#wakeAgain) {
        this.#wakeAgain = false;
        this.wake();
      }
    });
  }

  /**
   * Stops claiming; attempts in flight finish within STOP_GRACE_MS or are aborted and given
   * back (due again, no attempt counted). Either way no delivery is lost.
   */
  async stop(): Promise<void> {
    if (!this.#running) return;
    this.#running = false;
    this.#unsubscribe?.();
    this.#unsubscribeRevocations?.();
    clearTimeout(this.#timer);
    await this.#round;
    const queued = this.#queue.splice(0).map((q) => q.delivery);
    for (const delivery of queued) this.#hostCount(delivery.host).queued -= 1;
    if (queued.length > 0) {
      await this.#writes
        .release(queued)
        .catch((error) =>
          this.#deps.log.error(
            { err: error },
            'webhook worker: could not give back claimed deliveries; due again after their lease',
          ),
        );
    }
    const settled = Promise.allSettled([...this.#unrecorded]);
    let grace: NodeJS.Timeout | undefined;
    const finished = await Promise.race([
      settled.then(() => true),
      new Promise<false>((resolve) => {
        grace = setTimeout(() => resolve(false), STOP_GRACE_MS);
      }),
    ]);
    clearTimeout(grace);
    if (!finished) {
      for (const entry of this.#inFlight.values()) entry.abort.abort();
      await settled;
    }
    this.#sender.close();
  }

  async #claimRound(): Promise<void> {
    try {
      while (this.#running) {
        const free = CONCURRENCY + CLAIM_AHEAD - this.#inFlight.size - this.#queue.length;
        this.#backlog = free <= 0;
        if (free <= 0) return;
        const now = new Date(this.#clock.now());
        // A cheap read first where a claim is a write transaction (SQLite's, shared with the
        // pushes' commit), so an idle worker never opens one; on PostgreSQL the claim is one
        // statement that finds nothing as cheaply (delivery.writes.ts).
        if (this.#deps.database.dialect === 'sqlite' && !(await anyDue(this.#deps.database.db, now.toISOString())))
          return;
        const claim = {
          now: now.toISOString(),
          leaseUntil: new Date(now.getTime() + LEASE_MS).toISOString(),
          claimId: randomUUID(),
          limit: free,
          perHost: PER_HOST_CLAIM,
          busyHosts: this.#busyHosts(),
        };
        const waiting = this.#queue.map((queued) => queued.delivery);
        // With the claims an erasure in another process took back (this one's are dropped at once).
        const { claimed, revoked: revokedKeys } = await this.#writes.claim(
          claim,
          waiting.map(({ id, claim_id }) => ({ id, claim_id })),
        );
        const revoked = new Set(revokedKeys);
        if (revoked.size > 0)
          this.dropRevoked(waiting.filter((d) => revoked.has(claimKey(d.id, d.claim_id))).map(revokedClaimOf));
        for (const host of claim.busyHosts) this.#hostsWithMore.add(host);
        const claimedPerHost = new Map<string, number>();
        for (const { host } of claimed) claimedPerHost.set(host, (claimedPerHost.get(host) ?? 0) + 1);
        for (const [host, n] of claimedPerHost) if (n >= PER_HOST_CLAIM) this.#hostsWithMore.add(host);
        if (claimed.length > 0) await this.#startAttempts(claimed);
        this.#backlog = claimed.length === free;
        if (!this.#backlog) return;
      }
    } catch (error) {
      this.#deps.log.error({ err: error }, 'webhook worker: could not claim deliveries; trying again later');
    } finally {
      this.#arm(this.#clock.now() + this.#pollIntervalMs);
    }
  }

  async #startAttempts(claimed: ClaimedDelivery[]): Promise<void> {
    // The claim read each delivery's keys and 410; a distribution without a key yet gets one here.
    const keyless = [...new Set(claimed.filter((d) => d.secrets.length === 0).map((d) => d.distribution_id))];
    let created: Map<string, string[]>;
    try {
      created =
        keyless.length === 0
          ? new Map()
          : await signingSecrets(this.#deps.database.db, keyless, new Date(this.#clock.now()));
    } catch (error) {
      await this.#writes.release(claimed).catch(() => {});
      throw error;
    }
    for (const delivery of claimed) {
      this.#hostCount(delivery.host).queued += 1;
      this.#queue.push({
        delivery,
        secrets: delivery.secrets.length > 0 ? delivery.secrets : (created.get(delivery.distribution_id) ?? []),
      });
    }
    this.#pump();
  }

  /**
   * An erasure took these claims back (docs/design.md section 14): those still waiting in the
   * queue are never sent, and the erasure is told so. One already on its way is recorded as
   * usual, which tells the erasure once the receiver has answered.
   */
  dropRevoked(claims: readonly RevokedClaim[]): void {
    const keys = new Set(claims.map((c) => claimKey(c.delivery_id, c.claim_id)));
    const dropped = this.#queue.filter((q) => keys.has(claimKey(q.delivery.id, q.delivery.claim_id)));
    if (dropped.length === 0) return;
    this.#queue = this.#queue.filter((q) => !dropped.includes(q));
    for (const { delivery } of dropped) {
      const count = this.#hostCount(delivery.host);
      count.queued -= 1;
      if (count.inFlight === 0 && count.queued === 0) this.#perHost.delete(delivery.host);
    }
    const forgotten: Promise<void> = this.#writes
      .forgetRevoked(dropped.map(({ delivery }) => delivery))
      .catch((error) =>
        this.#deps.log.error(
          { err: error },
          'webhook worker: could not give back revoked claims; due after their lease',
        ),
      )
      .finally(() => this.#unrecorded.delete(forgotten));
    this.#unrecorded.add(forgotten);
  }

  /** The counts of one receiver host (created on first use, dropped when back to zero). */
  #hostCount(host: string): { inFlight: number; queued: number } {
    let count = this.#perHost.get(host);
    if (count === undefined) {
      count = { inFlight: 0, queued: 0 };
      this.#perHost.set(host, count);
    }
    return count;
  }

  /** Hosts this worker holds PER_HOST_CLAIM deliveries of already: the next claim skips them. */
  #busyHosts(): string[] {
    return [...this.#perHost]
      .filter(([, count]) => count.inFlight + count.queued >= PER_HOST_CLAIM)
      .map(([host]) => host);
  }

  /** Starts queued attempts, oldest first, while slots are free and their host is below its cap. */
  #pump(): void {
    for (let index = 0; this.#running && this.#inFlight.size < CONCURRENCY && index < this.#queue.length; ) {
      const count = this.#hostCount(this.#queue[index]!.delivery.host);
      if (count.inFlight >= PER_HOST_CONCURRENCY) {
        index += 1;
        continue;
      }
      const { delivery, secrets } = this.#queue.splice(index, 1)[0]!;
      count.queued -= 1;
      count.inFlight += 1;
      const entry: InFlight = { delivery, abort: new AbortController() };
      this.#inFlight.set(delivery.id, entry);
      const done: Promise<void> = this.#attempt(entry, secrets)
        .catch((error) =>
          this.#deps.log.error({ err: error, delivery_id: delivery.id }, 'webhook worker: could not record an attempt'),
        )
        .finally(() => {
          this.#freeSlot(entry);
          this.#unrecorded.delete(done);
        });
      this.#unrecorded.add(done);
    }
  }

  /**
   * The slot is free once the receiver answered: recording the result waits for a commit
   * (shared with pushes on SQLite), and holding the slot through it would cap throughput
   * at CONCURRENCY per commit round trip rather than per HTTP round trip.
   */
  #freeSlot(entry: InFlight): void {
    if (!this.#inFlight.delete(entry.delivery.id)) return;
    const count = this.#hostCount(entry.delivery.host);
    count.inFlight -= 1;
    if (count.inFlight === 0 && count.queued === 0) this.#perHost.delete(entry.delivery.host);
    // Claim more for a host that had more due once half its share is free (in batches).
    if (this.#hostsWithMore.has(entry.delivery.host) && count.inFlight + count.queued <= PER_HOST_CLAIM / 2) {
      this.#hostsWithMore.delete(entry.delivery.host);
      this.wake();
    }
    this.#pump();
    // Claim again once the queue runs low, in batches rather than one delivery per commit.
    if (this.#backlog && this.#queue.length <= CLAIM_AHEAD / 2) this.wake();
  }

  async #attempt(entry: InFlight, secrets: readonly string[]): Promise<void> {
    const { delivery } = entry;
    const stoppedAt = delivery.stopped_at ?? undefined;
    const startedAt = new Date(this.#clock.now());
    let result: SendResult;
    if (stoppedAt !== undefined) {
      const error = `not sent: the receiver answered 410 Gone at ${stoppedAt}; a push that lists the URL again resumes it`;
      result = { statusCode: null, error, refused: false, retryAfterMs: null, durationMs: 0 };
    } else {
      const headers = signWebhook(secrets, delivery.event_id, startedAt, delivery.payload);
      result = await this.#sender.send(delivery.url, { ...headers }, delivery.payload, entry.abort.signal);
      if (entry.abort.signal.aborted) {
        await this.#writes.release([delivery]);
        return;
      }
    }
    this.#freeSlot(entry);
    const decision: Decision =
      stoppedAt !== undefined
        ? { outcome: 'stopped', status: 'failed', nextAttemptAt: null, stopUrl: false }
        : decide(
            result,
            delivery.attempts - delivery.round_start + 1,
            this.#deps.config.webhookRetrySchedule,
            new Date(this.#clock.now()),
          );
    const recorded = await this.#record({
      delivery,
      startedAt: startedAt.toISOString(),
      durationMs: result.durationMs,
      outcome: decision.outcome,
      statusCode: result.statusCode,
      error: result.error,
      status: decision.status,
      nextAttemptAt: decision.nextAttemptAt?.toISOString() ?? null,
      stopUrl: decision.stopUrl,
    });
    const { metrics, log } = this.#deps;
    metrics.deliveries.inc({ outcome: decision.outcome });
    if (stoppedAt === undefined)
      metrics.attemptDuration.observe({ outcome: decision.outcome }, result.durationMs / 1000);
    const fields = {
      delivery_id: delivery.id,
      event_id: delivery.event_id,
      target: receiverOrigin(delivery.url),
      outcome: decision.outcome,
      status_code: result.statusCode,
      recorded,
    };
    if (decision.outcome === 'delivered') log.debug(fields, 'webhook delivered');
    else if (decision.outcome === 'retry')
      log.info(
        { ...fields, error: loggedError(result), next_attempt_at: decision.nextAttemptAt },
        'webhook attempt failed; will retry',
      );
    else log.warn({ ...fields, error: loggedError(result) }, 'webhook delivery failed');
    if (decision.nextAttemptAt) this.#arm(decision.nextAttemptAt.getTime());
  }

  /**
   * Writes the result once the attempts answered in this turn of the event loop have theirs
   * too: one transaction and two statements for all of them rather than per attempt, so that
   * under push load recording costs the writer (SQLite's one connection) little per delivery.
   * Resolves with whether it was recorded (the claim still held).
   */
  #record(record: AttemptRecord): Promise<boolean> {
    return new Promise((done, failed) => {
      this.#results.push({ record, done, failed });
      if (this.#results.length === 1) setImmediate(() => this.#writeResults());
    });
  }

  #writeResults(): void {
    const batch = this.#results.splice(0);
    this.#writes.record(batch.map((result) => result.record)).then(
      (ids) => {
        const recorded = new Set(ids);
        for (const result of batch) result.done(recorded.has(result.record.delivery.id));
      },
      (error) => {
        for (const result of batch) result.failed(error);
      },
    );
  }

  /** Wakes the worker at `at` unless a wake is already set for earlier. */
  #arm(at: number): void {
    if (!this.#running || at >= this.#timerAt) return;
    clearTimeout(this.#timer);
    this.#timerAt = at;
    this.#timer = setTimeout(
      () => {
        this.#timerAt = Infinity;
        this.#timer = undefined;
        this.wake();
      },
      Math.max(0, at - this.#clock.now()),
    );
  }
}

/**
 * An attempt's error as the log holds it: a receiver's answer can quote the event it was
 * sent (the person) or the callback URL, so of an answer only its status; the attempt's row
 * keeps the answer's text for `webhook deliveries` (docs/design.md section 14).
 */
function loggedError(result: SendResult): string | null {
  return result.statusCode === null ? result.error : `HTTP ${result.statusCode}`;
}

const revokedClaimOf = (delivery: ClaimedDelivery): RevokedClaim => ({
  delivery_id: delivery.id,
  claim_id: delivery.claim_id,
  until: '',
});
