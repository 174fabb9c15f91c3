// What the figures were measured on, for the report's first table.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import type { BenchOptions } from './options.ts';
import { ROOT } from './processes.ts';

export interface Machine {
  readonly cpu: string;
  readonly cores: number;
  readonly memoryGiB: number;
  readonly kernel: string;
  readonly node: string;
  readonly sqlite: string;
  readonly postgres: string | null;
  /** /proc/loadavg when the run started: other work on the machine skews every figure. */
  readonly loadAverage: string;
  /** The code measured: HEAD, and whether src/ differed from it. */
  readonly revision: string;
}

export async function describeMachine(options: BenchOptions): Promise<Machine> {
  const cpuinfo = fs.readFileSync('/proc/cpuinfo', 'utf8');
  const memory = new DatabaseSync(':memory:');
  const sqlite = (memory.prepare('select sqlite_version() as v').get() as { v: string }).v;
  memory.close();
  let postgres: string | null = null;
  if (options.databases.includes('postgres')) {
    const client = new pg.Client({ connectionString: options.postgresUrl });
    await client.connect();
    postgres = ((await client.query('show server_version')).rows[0] as { server_version: string }).server_version;
    await client.end();
  }
  return {
    cpu: /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1]?.trim() ?? os.cpus()[0]?.model ?? 'unknown',
    cores: os.availableParallelism(),
    memoryGiB: os.totalmem() / 1024 ** 3,
    kernel: `${os.type()} ${os.release()}`,
    node: process.version,
    sqlite,
    postgres,
    loadAverage: fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '),
    revision: describeRevision(),
  };
}

function describeRevision(): string {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
  try {
    const head = git('rev-parse', '--short', 'HEAD');
    return git('status', '--porcelain', '--', 'src') === '' ? head : `${head} with uncommitted changes in src/`;
  } catch {
    return 'unknown (not a git checkout)';
  }
}
