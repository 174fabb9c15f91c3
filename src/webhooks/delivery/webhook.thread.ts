// WEBHOOK_WORKER=thread: the delivery worker in a worker thread of this process
// (webhook-thread.entry.ts), started when the app is ready and stopped before anything
// closes. This side forwards what only this thread knows: a commit wrote events (a wake,
// at most one per turn of the event loop), an erasure took claims back; and puts the
// thread's attempt metrics on this process's /metrics. Should the thread die, nothing is
// lost (its claims come due again after their lease) and a new one starts.
import { Worker } from 'node:worker_threads';
import type { Config } from '../../config.ts';
import type { TransactionRunner } from '../../db/transaction-runner.ts';
import type { RevokedClaim } from './claim-revocation.repository.ts';
import type { AttemptRecord, Claim, ClaimedDelivery } from './delivery.repository.ts';
import { type ClaimRef, type DeliveryWrites, TransactionalDeliveryWrites } from './delivery.writes.ts';
import type { WorkerLog } from './webhook.worker.ts';
import type { WebhookMetrics } from '../webhook.metrics.ts';
import type { WebhookOutbox } from '../webhook.outbox.ts';
import type { AttemptOutcome } from '../webhook.table.ts';

type WriteOp = 'claim' | 'record' | 'release' | 'forgetRevoked';
/** What this side sends the thread. */
export type ThreadMessage =
  | 'wake'
  | 'stop'
  | 'flush-metrics'
  | { readonly revoked: readonly RevokedClaim[] }
  | { readonly reply: number; readonly value?: unknown; readonly error?: string };
/** What the thread sends back. */
export type WorkerMessage =
  | 'started'
  | 'stopped'
  | 'metrics-flushed'
  | {
      readonly metrics: {
        readonly deliveries: Partial<Record<AttemptOutcome, number>>;
        readonly durations: ReadonlyArray<readonly [AttemptOutcome, number]>;
      };
    }
  | { readonly call: number; readonly op: WriteOp; readonly args: readonly unknown[] };

/**
 * The thread's side of its writes on SQLite (delivery.writes.ts): each one a message to
 * this side, answered once this side's runner committed it.
 */
export class ServerThreadWrites implements DeliveryWrites {
  readonly #post: (message: WorkerMessage) => void;
  readonly #pending = new Map<number, { resolve: (value: never) => void; reject: (error: Error) => void }>();
  #next = 0;

  constructor(post: (message: WorkerMessage) => void) {
    this.#post = post;
  }

  /** An answer from the server's thread. */
  settle(reply: Extract<ThreadMessage, { reply: number }>): void {
    const pending = this.#pending.get(reply.reply);
    this.#pending.delete(reply.reply);
    if (reply.error !== undefined) pending?.reject(new Error(reply.error));
    else pending?.resolve(reply.value as never);
  }

  claim(claim: Claim, waiting: readonly ClaimRef[]) {
    return this.#call<{ claimed: ClaimedDelivery[]; revoked: string[] }>('claim', [claim, waiting]);
  }

  record(records: readonly AttemptRecord[]) {
    // The payload is not written: not worth copying to the other thread.
    const sent = records.map((record) => ({ ...record, delivery: { ...record.delivery, payload: '' } }));
    return this.#call<string[]>('record', [sent]);
  }

  release(deliveries: readonly ClaimRef[]) {
    return this.#call<void>('release', [deliveries.map(({ id, claim_id }) => ({ id, claim_id }))]);
  }

  forgetRevoked(deliveries: readonly ClaimRef[]) {
    return this.#call<void>('forgetRevoked', [deliveries.map(({ id, claim_id }) => ({ id, claim_id }))]);
  }

  #call<T>(op: WriteOp, args: readonly unknown[]): Promise<T> {
    const call = this.#next++;
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(call, { resolve: resolve as (value: never) => void, reject });
      this.#post({ call, op, args });
    });
  }
}

const ENTRY = new URL('./webhook-thread.entry.ts', import.meta.url);
const RESTART_DELAY_MS = 1_000;
/** Below Fastify's 10 s for an onReady hook. */
const START_PATIENCE_MS = 8_000;
/** The thread's own stop gives attempts in flight 5 s (webhook.worker.ts); past this it is ended. */
const STOP_TIMEOUT_MS = 15_000;

export interface WebhookThreadDependencies {
  readonly config: Config;
  /** The thread's writes on SQLite (ServerThreadWrites) are committed here. */
  readonly transactions: TransactionRunner;
  readonly outbox: WebhookOutbox;
  readonly metrics: WebhookMetrics;
  readonly log: WorkerLog;
}

export class WebhookThread {
  readonly #deps: WebhookThreadDependencies;
  readonly #writes: TransactionalDeliveryWrites;
  #thread: Worker | undefined;
  #stopping = false;
  #wakePending = false;
  #restart: NodeJS.Timeout | undefined;
  #unsubscribe: Array<() => void> = [];
  #flushed: Array<() => void> = [];
  /** A flush that gets no answer (the thread is gone or starting) does not hold a scrape longer. */
  static readonly FLUSH_PATIENCE_MS = 1_000;

  constructor(deps: WebhookThreadDependencies) {
    this.#deps = deps;
    this.#writes = new TransactionalDeliveryWrites(deps.transactions);
  }

  /**
   * Resolves once the thread runs its worker, so a server that answers /healthz delivers;
   * but after START_PATIENCE_MS at most: loading the thread's modules can take longer on a
   * busy machine, more than Fastify gives an onReady hook (10 s), and the server must serve
   * meanwhile. Its events wait in the outbox; the thread's first claim takes them.
   */
  async start(): Promise<void> {
    this.#unsubscribe = [
      this.#deps.outbox.subscribe(() => this.#wake()),
      this.#deps.outbox.subscribeRevocations((claims) => this.#thread?.postMessage({ revoked: claims })),
    ];
    const started = this.#spawn().catch(() => {
      // Logged by the thread's 'error' handler; its 'exit' starts a new one.
    });
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([started, new Promise((resolve) => (timer = setTimeout(resolve, START_PATIENCE_MS)))]);
    clearTimeout(timer);
  }

  async stop(): Promise<void> {
    this.#stopping = true;
    clearTimeout(this.#restart);
    for (const unsubscribe of this.#unsubscribe) unsubscribe();
    const thread = this.#thread;
    if (!thread) return;
    const exited = new Promise((resolve) => thread.once('exit', resolve));
    thread.postMessage('stop' satisfies ThreadMessage);
    const timer = setTimeout(() => void thread.terminate(), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  }

  /** The thread's attempt metrics counted here, every attempt it made until now. */
  flushMetrics(): Promise<void> {
    const thread = this.#thread;
    if (!thread) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, WebhookThread.FLUSH_PATIENCE_MS);
      this.#flushed.push(() => {
        clearTimeout(timer);
        resolve();
      });
      if (this.#flushed.length === 1) thread.postMessage('flush-metrics' satisfies ThreadMessage);
    });
  }

  /** One wake per turn of this event loop, however many commits it saw: the thread claims in batches. */
  #wake(): void {
    if (this.#wakePending || !this.#thread) return;
    this.#wakePending = true;
    setImmediate(() => {
      this.#wakePending = false;
      this.#thread?.postMessage('wake' satisfies ThreadMessage);
    });
  }

  #spawn(): Promise<void> {
    const thread = new Worker(ENTRY, { workerData: { config: this.#deps.config } });
    this.#thread = thread;
    const started = new Promise<void>((resolve, reject) => {
      thread.once('error', reject);
      thread.on('message', (message: WorkerMessage) => {
        if (message === 'started') resolve();
        else if (message === 'stopped') return;
        else if (message === 'metrics-flushed') for (const done of this.#flushed.splice(0)) done();
        else if ('call' in message) this.#write(thread, message);
        else this.#count(message.metrics);
      });
    });
    thread.on('error', (error) => this.#deps.log.error({ err: error }, 'webhook thread failed'));
    thread.once('exit', (code) => {
      if (this.#thread === thread) this.#thread = undefined;
      if (this.#stopping) return;
      this.#deps.log.error({ code }, 'webhook thread exited; starting a new one');
      this.#restart = setTimeout(() => void this.#spawn().catch(() => {}), RESTART_DELAY_MS);
      this.#restart.unref();
    });
    return started;
  }

  #write(thread: Worker, { call, op, args }: Extract<WorkerMessage, { call: number }>): void {
    const writes = this.#writes as unknown as Record<WriteOp, (...args: readonly unknown[]) => Promise<unknown>>;
    writes[op]
      .apply(this.#writes, [...args])
      .then(
        (value) => ({ reply: call, value }),
        (error: unknown) => ({ reply: call, error: error instanceof Error ? error.message : String(error) }),
      )
      .then((reply: ThreadMessage) => thread.postMessage(reply));
  }

  #count(metrics: Extract<WorkerMessage, { metrics: unknown }>['metrics']): void {
    for (const [outcome, n] of Object.entries(metrics.deliveries))
      this.#deps.metrics.deliveries.inc({ outcome: outcome as AttemptOutcome }, n);
    for (const [outcome, seconds] of metrics.durations)
      this.#deps.metrics.attemptDuration.observe({ outcome }, seconds);
  }
}
