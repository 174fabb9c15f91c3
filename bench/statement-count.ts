// Statements a server runs (and on PostgreSQL the round trips it waits for), counted from
// outside its code, so a revision that keeps no count of its own is counted as this
// checkout is: on PostgreSQL on the wire, through a relay (bench/pg-wire-counter.ts); on
// SQLite in node:sqlite's calls, by a module loaded into the server
// (bench/sqlite-statement-counter.ts) that appends its count to a file when signalled.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BenchServer, ServerSpec } from './bench-server.ts';
import type { BenchDatabase } from './database.ts';
import { startWireCounter } from './pg-wire-counter.ts';
import { ROOT } from './processes.ts';

export interface StatementCount {
  /** The server spec that routes the server through the counter. */
  spec(base: ServerSpec): ServerSpec;
  /** Statements so far, and round trips so far on PostgreSQL (null on SQLite). */
  read(server: BenchServer): Promise<{ statements: number; roundTrips: number | null }>;
  close(): Promise<void>;
}

export async function countStatementsOf(database: BenchDatabase): Promise<StatementCount> {
  if (database.dialect === 'postgres') {
    const wire = await startWireCounter(database.env.DATABASE_URL!);
    return {
      spec: (base) => ({ ...base, env: { ...base.env, DATABASE_URL: wire.url } }),
      read: async () => wire.counts(),
      close: () => wire.close(),
    };
  }
  const file = path.join(os.tmpdir(), `lead-intake-statements-${randomBytes(6).toString('hex')}.txt`);
  return {
    spec: (base) => ({
      ...base,
      env: { ...base.env, BENCH_STATEMENT_COUNTS: file },
      nodeArgs: [...(base.nodeArgs ?? []), '--import', path.join(ROOT, 'bench/sqlite-statement-counter.ts')],
    }),
    read: async (server) => ({ statements: await signalledCount(server.pid, file), roundTrips: null }),
    close: async () => fs.rmSync(file, { force: true }),
  };
}

/** Asks the server's counter for its count (SIGUSR2) and waits for the line it appends. */
async function signalledCount(pid: number, file: string): Promise<number> {
  const lines = () => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);
  const before = lines().length;
  process.kill(pid, 'SIGUSR2');
  const deadline = Date.now() + 10_000;
  while (lines().length === before) {
    if (Date.now() > deadline)
      throw new Error('the server wrote no statement count (bench/sqlite-statement-counter.ts)');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return Number(lines().at(-1));
}
