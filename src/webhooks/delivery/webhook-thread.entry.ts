// The webhook worker in a worker thread of the server (WEBHOOK_WORKER=thread, see
// webhook.thread.ts): its own event loop, so attempts and their answers are not queued
// behind the requests the server's loop is parsing, and its own database connection (on
// SQLite a second connection to the WAL file, as a `lead-intake webhook work` process has).
// The server's thread tells it when a commit wrote events and when an erasure took claims
// back; it reports its attempts' metrics to the server's /metrics.
import { parentPort, workerData } from 'node:worker_threads';
import pino from 'pino';
import type { Config } from '../../config.ts';
import { openDatabase } from '../../db/database.ts';
import { createTransactionRunner } from '../../db/transaction-runner.ts';
import type { AttemptOutcome } from '../webhook.table.ts';
import { ServerThreadWrites, type ThreadMessage, type WorkerMessage } from './webhook.thread.ts';
import { WebhookWorker } from './webhook.worker.ts';

/** Attempt metrics go to the server's thread at most this often, as counts, not one message each. */
const METRICS_FLUSH_MS = 500;
/** The worker's claims, reads and result writes; a claim and its reads overlap at most. */
const POOL_SIZE = 4;

const { config } = workerData as { config: Config };
const port = parentPort!;
const post = (message: WorkerMessage) => port.postMessage(message);

const database = openDatabase({ ...config, poolSize: POOL_SIZE, sqliteBackgroundCheckpoint: false });
const transactions = createTransactionRunner(database);
const log = pino({
  level: config.logLevel,
  base: { pid: process.pid, component: 'webhook-worker', thread: 'webhook' },
});

let delivered: Partial<Record<AttemptOutcome, number>> = {};
let durations: Array<[AttemptOutcome, number]> = [];
const flushMetrics = () => {
  if (durations.length === 0 && Object.keys(delivered).length === 0) return;
  post({ metrics: { deliveries: delivered, durations } });
  delivered = {};
  durations = [];
};
const metricsTimer = setInterval(flushMetrics, METRICS_FLUSH_MS);

// SQLite: one writer, the server's thread (delivery.writes.ts). PostgreSQL: this thread's pool.
const writes = database.dialect === 'sqlite' ? new ServerThreadWrites(post) : undefined;

const worker = new WebhookWorker({
  config,
  database,
  transactions,
  ...(writes && { writes }),
  log,
  metrics: {
    deliveries: {
      inc: ({ outcome }) => {
        delivered[outcome] = (delivered[outcome] ?? 0) + 1;
      },
    },
    attemptDuration: {
      observe: ({ outcome }, seconds) => {
        durations.push([outcome, seconds]);
      },
    },
  },
});

port.on('message', (message: ThreadMessage) => {
  if (message === 'wake') worker.wake();
  else if (message === 'flush-metrics') {
    flushMetrics();
    post('metrics-flushed');
  } else if (message === 'stop') void stop();
  else if ('reply' in message) writes?.settle(message);
  else worker.dropRevoked(message.revoked);
});

async function stop(): Promise<void> {
  try {
    await worker.stop();
    await transactions.close();
    await database.close();
  } finally {
    clearInterval(metricsTimer);
    flushMetrics();
    post('stopped');
    port.close();
  }
}

worker.start();
post('started');
